/**
 * Single message transforms for the records of the vstream source connector (see docs/transforms.md):
 * {@link io.vstream.connect.transforms.ExtractNewRow} unwraps row envelopes into flat rows,
 * {@link io.vstream.connect.transforms.ShardToTableRouter} routes rows from the per-shard logs to per-table topics and
 * {@link io.vstream.connect.transforms.KeyspaceIdHeader} adds a row's Vitess keyspace id as a header and can keep one
 * key range. Predicates are in {@link io.vstream.connect.transforms.predicates}. The module depends only on the
 * Connect API and vstream-core's event model, vindexes and key ranges.
 */
package io.vstream.connect.transforms;
