/**
 * Real MariaDB servers for tests, without Docker: {@link io.vstream.connect.testsupport.db.MariaDbShards}
 * starts {@code mariadbd} processes from Debian's {@code mariadb-server} (one per shard, binlog ROW/FULL,
 * strict GTIDs), each a {@link io.vstream.connect.testsupport.db.MariaDbServer} with its own datadir under
 * {@code target/mariadb}, port, {@code server_id}, per-test databases, restart/kill and GTID replicas.
 * Exists because every connector test needs shards that behave like production ones, and because no
 * server may outlive the test JVM on a shared machine.
 */
package io.vstream.connect.testsupport.db;
