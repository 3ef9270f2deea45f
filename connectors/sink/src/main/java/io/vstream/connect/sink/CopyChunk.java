package io.vstream.connect.sink;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The copy chunk being received on one log: the copy rows of one table, held until the chunk's LASTPK closes it (then
 * they replace the chunk's key range in one transaction) and dropped when anything else comes first (the source sends
 * that chunk again). A copy row this target does not write (another new shard's, in a reshard) still keeps the chunk
 * open, so that its LASTPK empties the range here too. No I/O.
 */
final class CopyChunk {
    private String table;
    private final List<Struct> rows = new ArrayList<>();
    private final List<SinkRecord> records = new ArrayList<>();

    /** The rows a closed chunk holds, with the records they came in (for their headers and for errors). */
    record Closed(List<Struct> rows, List<SinkRecord> records) {
    }

    /** Whether a chunk is open (copy rows came and their LASTPK has not). */
    boolean open() {
        return table != null;
    }

    /** A copy row of {@code sourceTable} that this target does not write: the chunk spans it, holding nothing. */
    void spans(String sourceTable) {
        if (table != null && !table.equals(sourceTable)) {
            abandon(); // another table's rows without their LASTPK: copied again later
        }
        table = sourceTable;
    }

    /** A copy row of {@code sourceTable} to write when the chunk closes. */
    void add(String sourceTable, Struct row, SinkRecord record) {
        spans(sourceTable);
        rows.add(row);
        records.add(record);
    }

    /**
     * Closes the chunk at {@code sourceTable}'s LASTPK: the rows it holds (none when the open chunk is another
     * table's or none is open); the chunk is empty afterwards.
     */
    Closed close(String sourceTable) {
        Closed closed = sourceTable.equals(table) ? new Closed(new ArrayList<>(rows), new ArrayList<>(records))
                : new Closed(List.of(), List.of());
        abandon();
        return closed;
    }

    /** Drops the chunk: its rows are not written (the source copies the range again). */
    void abandon() {
        table = null;
        rows.clear();
        records.clear();
    }
}
