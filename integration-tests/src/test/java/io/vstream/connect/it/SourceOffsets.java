package io.vstream.connect.it;

import io.vstream.connect.core.position.GtidPosition;
import io.vstream.connect.core.position.OffsetCodec;
import io.vstream.connect.testsupport.connect.ConnectCluster;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;

/**
 * Waits for a source connector's stored position on one shard ({@code GET /connectors/{name}/offsets}, the
 * {@code gtid} of the shard's partition, docs/offsets.md) to hold a wanted GTID position. Connect stores a record's
 * offset only once that record and every earlier one of its partition are in Kafka, so a stored position past the last
 * write on a shard means every record of those writes (a row, or one a transform should have dropped) is readable.
 * Reads the Connect cluster's REST API; writes nothing.
 */
final class SourceOffsets {
    private SourceOffsets() {
    }

    /** Fails after {@code timeout} unless {@code connector} has stored a position on the shard that holds {@code wanted}. */
    static void awaitStored(ConnectCluster connect, String connector, String keyspace, String shard,
                            GtidPosition wanted, Duration timeout) throws InterruptedException {
        Map<String, String> partition = OffsetCodec.partition(keyspace, shard);
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            last = storedGtid(connect, connector, partition);
            if (holds(last, wanted)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(connector + " stored no position on " + keyspace + "/" + shard + " holding " + wanted
                + " within " + timeout + "; it stored " + last);
    }

    private static String storedGtid(ConnectCluster connect, String connector, Map<String, String> partition) {
        try {
            for (ConnectorOffset o : connect.embedded().connectorOffsets(connector).offsets()) {
                if (partition.equals(o.partition()) && o.offset() != null) {
                    Object gtid = o.offset().get(OffsetCodec.GTID_KEY);
                    return gtid == null ? null : gtid.toString();
                }
            }
        } catch (RuntimeException e) {
            // the connector or its offsets are not there yet
        }
        return null;
    }

    private static boolean holds(String stored, GtidPosition wanted) {
        try {
            return stored != null && GtidPosition.parse(stored).contains(wanted);
        } catch (RuntimeException e) {
            return false; // "current": the stream has not read a position yet
        }
    }
}
