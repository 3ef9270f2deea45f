package io.vstream.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.Version;
import io.vstream.connect.core.event.EventHeaders;
import io.vstream.connect.core.event.EventType;
import io.vstream.connect.core.event.RowEnvelope;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ExtractNewRowTest {

    private final ExtractNewRow<SourceRecord> unwrap = new ExtractNewRow<>();

    @AfterEach
    void close() {
        unwrap.close();
    }

    private void configure(String... kv) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            props.put(kv[i], kv[i + 1]);
        }
        unwrap.configure(props);
    }

    @Test
    void reportsTheBuildVersionAndItsConfigDef() {
        assertThat(unwrap.version()).isEqualTo(Version.get()).isNotBlank();
        assertThat(unwrap.config()).isSameAs(ExtractNewRow.CONFIG_DEF);
        assertThat(ExtractNewRow.CONFIG_DEF.names())
                .containsExactlyInAnyOrder("delete.handling", "add.fields", "control.events");
    }

    @Nested
    class WithSchema {
        @Test
        void anInsertBecomesItsAfterImageWithKeyTopicAndHeadersKept() {
            configure();
            SourceRecord in = Records.insert(1, 10);
            SourceRecord out = unwrap.apply(in);
            assertThat(out.valueSchema()).isEqualTo(Records.ROW);
            assertThat(out.value()).isEqualTo(Records.row(1, 10, "1.25", "n1"));
            assertThat(out.key()).isEqualTo(Records.key(1));
            assertThat(out.keySchema()).isEqualTo(Records.KEY);
            assertThat(out.topic()).isEqualTo(in.topic());
            assertThat(out.kafkaPartition()).isEqualTo(in.kafkaPartition());
            assertThat(out.timestamp()).isEqualTo(in.timestamp());
            assertThat(out.sourcePartition()).isEqualTo(in.sourcePartition());
            assertThat(out.sourceOffset()).isEqualTo(in.sourceOffset());
            assertThat(out.headers()).isEqualTo(in.headers());
        }

        @Test
        void anUpdateBecomesItsAfterImage() {
            configure();
            SourceRecord out = unwrap.apply(Records.rowRecord(RowEnvelope.Op.UPDATE, Records.row(1, 10, "1.25", "a"),
                    Records.row(1, 10, "2.50", "b")));
            assertThat(((Struct) out.value()).get("amount")).isEqualTo(new BigDecimal("2.50"));
            assertThat(((Struct) out.value()).getString("note")).isEqualTo("b");
        }

        @Test
        void aCopyRowBecomesItsAfterImage() {
            configure();
            SourceRecord out = unwrap.apply(Records.rowRecord(RowEnvelope.Op.READ, null,
                    Records.row(5, 50, null, null)));
            assertThat(out.value()).isEqualTo(Records.row(5, 50, null, null));
        }

        @Test
        void aDeleteBecomesATombstoneByDefault() {
            configure();
            SourceRecord in = Records.delete(3, 30);
            SourceRecord out = unwrap.apply(in);
            assertThat(out.value()).isNull();
            assertThat(out.valueSchema()).as("a real tombstone has no value schema either").isNull();
            assertThat(out.key()).isEqualTo(Records.key(3));
            assertThat(out.headers()).isEqualTo(in.headers());
        }

        @Test
        void aDeleteIsDroppedWithDrop() {
            configure("delete.handling", "drop");
            assertThat(unwrap.apply(Records.delete(3, 30))).isNull();
            assertThat(unwrap.apply(Records.insert(3, 30))).isNotNull();
        }

        @Test
        void rewriteGivesTheBeforeImageWithDeletedTrueAndOtherRowsDeletedFalseInOneSchema() {
            configure("delete.handling", "REWRITE");
            SourceRecord deleted = unwrap.apply(Records.delete(3, 30));
            SourceRecord inserted = unwrap.apply(Records.insert(4, 40));
            Struct d = (Struct) deleted.value();
            assertThat(d.getInt64("id")).isEqualTo(3L);
            assertThat(d.getString("note")).isEqualTo("n3");
            assertThat(d.getBoolean(ExtractNewRow.DELETED_FIELD)).isTrue();
            assertThat(((Struct) inserted.value()).getBoolean("__deleted")).isFalse();
            assertThat(deleted.valueSchema()).isSameAs(inserted.valueSchema());
            assertThat(deleted.valueSchema().name()).isEqualTo(Records.ROW.name());
            assertThat(deleted.valueSchema().field("__deleted").schema()).isEqualTo(Schema.OPTIONAL_BOOLEAN_SCHEMA);
            assertThat(deleted.key()).isEqualTo(Records.key(3));
        }

        @Test
        void addedFieldsCopyEnvelopeSourceAndTransactionFieldsAsOptionalFields() {
            configure("add.fields", "op, keyspace,shard,table,db,gtid,ts_ms,source.ts_ms,snapshot,epoch,"
                    + "transaction.id");
            Struct v = (Struct) unwrap.apply(Records.insert(1, 10)).value();
            assertThat(v.getInt64("id")).isEqualTo(1L);
            assertThat(v.getString("__op")).isEqualTo("c");
            assertThat(v.getString("__keyspace")).isEqualTo("commerce");
            assertThat(v.getString("__shard")).isEqualTo("-80");
            assertThat(v.getString("__table")).isEqualTo("orders");
            assertThat(v.getString("__db")).isEqualTo("shop");
            assertThat(v.getString("__gtid")).isEqualTo(Records.GTID);
            assertThat(v.getInt64("__ts_ms")).as("envelope ts_ms: when the connector built the event")
                    .isEqualTo(1_700_000_000_500L);
            assertThat(v.getInt64("__source_ts_ms")).as("source ts_ms: the commit time")
                    .isEqualTo(1_700_000_000_000L);
            assertThat(v.getString("__snapshot")).isEqualTo("false");
            assertThat(v.getInt64("__epoch")).isEqualTo(0L);
            assertThat(v.getString("__transaction_id")).isEqualTo("-80:" + Records.GTID);
            assertThat(v.schema().fields().stream().skip(Records.ROW.fields().size()))
                    .allMatch(f -> f.schema().isOptional() && f.name().startsWith("__"));
            assertThat(v.schema().field("__epoch").schema().type()).isEqualTo(Schema.Type.INT64);
        }

        @Test
        void addedFieldsOfACopyRowWithoutGtidOrTransactionAreNull() {
            configure("add.fields", "op,gtid,transaction.id,snapshot");
            Struct v = (Struct) unwrap.apply(Records.rowRecord(RowEnvelope.Op.READ, null,
                    Records.row(5, 50, null, null))).value();
            assertThat(v.getString("__op")).isEqualTo("r");
            assertThat(v.get("__gtid")).isNull();
            assertThat(v.get("__transaction_id")).isNull();
            assertThat(v.getString("__snapshot")).isEqualTo("true");
        }

        @Test
        void derivedSchemasAreCachedPerEnvelopeSchema() {
            configure("add.fields", "op");
            Schema first = unwrap.apply(Records.insert(1, 10)).valueSchema();
            Schema second = unwrap.apply(Records.delete(2, 20)).valueSchema();
            assertThat(second).isNull(); // tombstone
            Schema third = unwrap.apply(Records.rowRecord(RowEnvelope.Op.UPDATE, Records.row(1, 1, null, null),
                    Records.row(1, 1, "3.00", null))).valueSchema();
            assertThat(third).isSameAs(first);
        }

        @Test
        void anAddedFieldThatCollidesWithAColumnFailsNamingTheFix() {
            Schema row = SchemaBuilder.struct().name("t.Value").optional()
                    .field("id", Schema.INT64_SCHEMA).field("__op", Schema.OPTIONAL_STRING_SCHEMA).build();
            Schema envelope = RowEnvelope.schema("t.Envelope", row);
            Struct value = RowEnvelope.value(envelope, null, new Struct(row).put("id", 1L), Records.source("-80", "t",
                    "g", "false"), RowEnvelope.Op.CREATE, 1L, null);
            SourceRecord in = new SourceRecord(null, null, Records.TOPIC, 0, null, null, envelope, value, 1L,
                    Records.headers(EventType.ROW, "-80", "t"));
            configure("add.fields", "op");
            assertThatThrownBy(() -> unwrap.apply(in)).isInstanceOf(DataException.class)
                    .hasMessageContaining("already has a column").hasMessageContaining("add.fields");
        }

        @Test
        void anEnvelopeWithoutARequestedSourceFieldFailsNamingTheFieldsItHas() {
            Schema source = SchemaBuilder.struct().name("io.debezium.connector.mysql.Source")
                    .field("db", Schema.STRING_SCHEMA).field("table", Schema.OPTIONAL_STRING_SCHEMA).build();
            Schema envelope = SchemaBuilder.struct().name("x.Envelope")
                    .field("before", Records.ROW).field("after", Records.ROW).field("source", source)
                    .field("op", Schema.STRING_SCHEMA).build();
            Struct value = new Struct(envelope).put("after", Records.row(1, 1, null, null))
                    .put("source", new Struct(source).put("db", "d").put("table", "t")).put("op", "c");
            SourceRecord in = new SourceRecord(null, null, "dbz.d.t", 0, null, null, envelope, value);
            configure("add.fields", "keyspace");
            assertThatThrownBy(() -> unwrap.apply(in)).isInstanceOf(DataException.class)
                    .hasMessageContaining("keyspace").hasMessageContaining("[db, table]");
        }

        @Test
        void aRowWhoseValueIsNoEnvelopeFailsAskingWhetherItWasUnwrappedTwice() {
            configure();
            SourceRecord once = unwrap.apply(Records.insert(1, 10));
            assertThatThrownBy(() -> unwrap.apply(once)).isInstanceOf(DataException.class)
                    .hasMessageContaining("unwrapped twice").hasMessageContaining("vs.commerce.-80");
        }

        @Test
        void anUpdateWithoutAfterImageFails() {
            configure();
            SourceRecord in = Records.rowRecord(RowEnvelope.Op.UPDATE, Records.row(1, 1, null, null), null);
            assertThatThrownBy(() -> unwrap.apply(in)).isInstanceOf(DataException.class)
                    .hasMessageContaining("op 'u' has no after image");
        }
    }

    @Nested
    class Schemaless {
        @Test
        void anInsertBecomesItsAfterMap() {
            configure();
            SourceRecord in = Records.schemaless(Records.insert(1, 10));
            SourceRecord out = unwrap.apply(in);
            assertThat(out.valueSchema()).isNull();
            assertThat(out.value()).isEqualTo(Map.of("id", 1L, "customer_id", 10L, "amount", new BigDecimal("1.25"),
                    "note", "n1"));
            assertThat(out.key()).isEqualTo(Map.of("id", 1L));
            assertThat(out.headers()).isEqualTo(in.headers());
        }

        @Test
        void deletesFollowDeleteHandling() {
            configure();
            SourceRecord tombstone = unwrap.apply(Records.schemaless(Records.delete(3, 30)));
            assertThat(tombstone.value()).isNull();
            assertThat(tombstone.key()).isEqualTo(Map.of("id", 3L));

            configure("delete.handling", "drop");
            assertThat(unwrap.apply(Records.schemaless(Records.delete(3, 30)))).isNull();

            configure("delete.handling", "rewrite");
            @SuppressWarnings("unchecked")
            Map<String, Object> rewritten = (Map<String, Object>) unwrap.apply(Records.schemaless(
                    Records.delete(3, 30))).value();
            assertThat(rewritten).containsEntry("id", 3L).containsEntry("note", "n3").containsEntry("__deleted", true);
            @SuppressWarnings("unchecked")
            Map<String, Object> inserted = (Map<String, Object>) unwrap.apply(Records.schemaless(
                    Records.insert(4, 40))).value();
            assertThat(inserted).containsEntry("__deleted", false);
        }

        @Test
        void addedFieldsAreCopied() {
            configure("add.fields", "op,shard,table,gtid,source.ts_ms,transaction.total_order");
            @SuppressWarnings("unchecked")
            Map<String, Object> v = (Map<String, Object>) unwrap.apply(Records.schemaless(Records.insert(1, 10)))
                    .value();
            assertThat(v).containsEntry("__op", "c").containsEntry("__shard", "-80")
                    .containsEntry("__table", "orders").containsEntry("__gtid", Records.GTID)
                    .containsEntry("__source_ts_ms", 1_700_000_000_000L).containsEntry("__transaction_total_order", 1L)
                    .containsEntry("id", 1L);
        }
    }

    @Nested
    class PassThrough {
        @Test
        void controlEventsAreDroppedByDefault() {
            configure();
            assertThat(unwrap.apply(Records.begin())).isNull();
            assertThat(unwrap.apply(Records.commit())).isNull();
            assertThat(unwrap.apply(Records.heartbeat())).isNull();
            assertThat(unwrap.apply(Records.schemaless(Records.commit()))).isNull();
        }

        @Test
        void controlEventsPassUnchangedWithPass() {
            configure("control.events", "pass");
            SourceRecord begin = Records.begin();
            assertThat(unwrap.apply(begin)).isSameAs(begin);
            SourceRecord commit = Records.schemaless(Records.commit());
            assertThat(unwrap.apply(commit)).isSameAs(commit);
        }

        @Test
        void tombstonesPassUntouched() {
            configure("delete.handling", "rewrite", "add.fields", "op");
            SourceRecord tombstone = Records.tombstone(3);
            assertThat(unwrap.apply(tombstone)).isSameAs(tombstone);
        }

        @Test
        void recordsThatAreNotOursPassUntouched() {
            configure();
            SourceRecord other = new SourceRecord(null, null, "other", 0, Schema.STRING_SCHEMA, "k",
                    Schema.STRING_SCHEMA, "v");
            assertThat(unwrap.apply(other)).isSameAs(other);
        }

        @Test
        void anEnvelopeWithoutHeadersIsStillUnwrapped() {
            configure();
            SourceRecord out = unwrap.apply(Records.withoutHeaders(Records.insert(1, 10)));
            assertThat(out.value()).isEqualTo(Records.row(1, 10, "1.25", "n1"));
        }

        @Test
        void headerValuesAreReadAsTextWhateverTheirForm() {
            configure();
            SourceRecord in = Records.insert(1, 10);
            in.headers().remove(EventHeaders.EVENT).addBytes(EventHeaders.EVENT, "row".getBytes());
            assertThat(unwrap.apply(in).value()).isEqualTo(Records.row(1, 10, "1.25", "n1"));
            SourceRecord commit = Records.commit();
            commit.headers().remove(EventHeaders.EVENT).addBytes(EventHeaders.EVENT, "COMMIT".getBytes());
            assertThat(unwrap.apply(commit)).isNull();
        }
    }

    @Nested
    class Configuration {
        @Test
        void anUnknownAddedFieldIsRefusedListingTheValidNames() {
            assertThatThrownBy(() -> configure("add.fields", "op,lsn")).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("lsn").hasMessageContaining("keyspace, shard, server_id, gtid")
                    .hasMessageContaining("transaction.id");
            assertThatThrownBy(() -> configure("add.fields", "source.nope")).isInstanceOf(ConfigException.class);
            assertThatThrownBy(() -> configure("add.fields", "op,op")).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("twice");
        }

        @Test
        void choicesAreValidatedAndCaseInsensitive() {
            assertThatThrownBy(() -> configure("delete.handling", "none")).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("drop, tombstone, rewrite");
            assertThatThrownBy(() -> configure("control.events", "keep")).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("drop, pass");
            configure("delete.handling", "Drop", "control.events", "PASS");
            assertThat(unwrap.apply(Records.delete(1, 1))).isNull();
        }

        @Test
        void theConfigDefValidatesEveryKeyForTheRestApi() {
            Map<String, String> bad = Map.of("delete.handling", "x", "add.fields", "nope", "control.events", "y");
            assertThat(ExtractNewRow.CONFIG_DEF.validate(bad))
                    .allMatch(v -> !v.errorMessages().isEmpty(), "every key reports its error");
        }
    }
}
