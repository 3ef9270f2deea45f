/**
 * Predicates over vstream records, by their {@code vstream.event} header: {@link
 * io.vstream.connect.transforms.predicates.IsRowEvent}, {@link io.vstream.connect.transforms.predicates.IsControlEvent}
 * and {@link io.vstream.connect.transforms.predicates.EventTypeIs}. Use them to apply a transform to rows only, or to
 * filter control events with Kafka's {@code Filter}.
 */
package io.vstream.connect.transforms.predicates;
