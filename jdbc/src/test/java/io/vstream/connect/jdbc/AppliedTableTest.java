package io.vstream.connect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The statements both sides of {@code applied} send: the sink's tagged {@code sink}, the coordinator's its own. */
class AppliedTableTest {
    private static final String T = "`_vstream`.`applied`";

    @Test
    void theSinkCreatesTheTableWithEveryColumn() {
        assertThat(AppliedTable.createStatement("_vstream")).isEqualTo("/* vstream-connect:sink */ CREATE TABLE"
                + " IF NOT EXISTS " + T + " (stream VARCHAR(128) NOT NULL, topic VARCHAR(249) NOT NULL,"
                + " kafka_partition INT NOT NULL, kafka_offset BIGINT NOT NULL, keyspace VARCHAR(128),"
                + " shard VARCHAR(64), position TEXT, copy_state MEDIUMTEXT, source_ts_ms BIGINT, updated_at"
                + " TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), rows_copied"
                + " BIGINT, PRIMARY KEY (stream, topic, kafka_partition)) ENGINE=InnoDB");
    }

    @Test
    void theSinkReadsAndWritesOnePartitionsRow() {
        assertThat(AppliedTable.loadStatement("_vstream")).isEqualTo("/* vstream-connect:sink */ SELECT kafka_offset,"
                + " keyspace, shard, position, copy_state, rows_copied FROM " + T
                + " WHERE stream = ? AND topic = ? AND kafka_partition = ?");
        assertThat(AppliedTable.saveStatement("_vstream")).isEqualTo("/* vstream-connect:sink */ INSERT INTO " + T
                + " (stream, topic, kafka_partition, kafka_offset, keyspace, shard, position, copy_state, source_ts_ms,"
                + " rows_copied) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE kafka_offset ="
                + " VALUES(kafka_offset), keyspace = VALUES(keyspace), shard = VALUES(shard), position ="
                + " VALUES(position), copy_state = VALUES(copy_state), source_ts_ms = VALUES(source_ts_ms), rows_copied"
                + " = VALUES(rows_copied)");
    }

    @Test
    void anOffsetResetWritesOrForgetsTheOffsetOnly() {
        assertThat(AppliedTable.overwriteOffsetStatement("_vstream")).isEqualTo("INSERT INTO " + T + " (stream,"
                + " topic, kafka_partition, kafka_offset) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE kafka_offset ="
                + " VALUES(kafka_offset)");
        assertThat(AppliedTable.deleteStatement("_vstream")).isEqualTo("DELETE FROM " + T
                + " WHERE stream = ? AND topic = ? AND kafka_partition = ?");
    }

    @Test
    void theCoordinatorReadsAStreamsRowsWithOrWithoutTheCount() {
        assertThat(AppliedTable.readStatement("_vstream", true)).isEqualTo("/* vstream-connect:coordinator */ SELECT"
                + " topic, kafka_partition, position, copy_state, source_ts_ms, rows_copied FROM " + T
                + " WHERE stream = ?");
        assertThat(AppliedTable.readStatement("st", false)).isEqualTo("/* vstream-connect:coordinator */ SELECT"
                + " topic, kafka_partition, position, copy_state, source_ts_ms, NULL FROM `st`.`applied`"
                + " WHERE stream = ?");
    }
}
