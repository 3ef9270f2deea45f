/**
 * A real schema registry for the Avro tests: {@link io.vstream.connect.testsupport.registry.ApicurioRegistry} runs
 * Apicurio Registry (built by the {@code schema-registry} module) as a separate process on a free port, and
 * {@link io.vstream.connect.testsupport.registry.CcompatApi} reads its Confluent-compatible API as a consumer does.
 */
package io.vstream.connect.testsupport.registry;
