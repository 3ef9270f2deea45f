package io.vstream.connect.testsupport.compare;

import io.vstream.connect.local.compare.ComparisonResult;
import io.vstream.connect.local.compare.RowDifference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares a source table with a target table, possibly on different servers and databases and with a
 * {@link ColumnMapping}, by chunked checksums: key ranges of {@code chunkSize} source rows in key order,
 * {@code COUNT(*)} and {@code BIT_XOR(CRC32(...))} of each range on both sides, and a row-level diff of
 * each range whose checksums differ. The last range is open-ended, so extra target rows beyond the
 * source's last key are found too. Reads both servers (expects quiesced tables); writes nothing.
 *
 * <pre>{@code
 * ComparisonResult result = TableComparator.builder()
 *         .source(sourceConnection, "app", "orders")
 *         .target(targetConnection, "copy", "orders")
 *         .mapping(ColumnMapping.byName().renamed("note", "comment").excluded("created_by"))
 *         .build().compare();
 * assertThat(result.isEqual()).as(result.toString()).isTrue();
 * }</pre>
 */
public final class TableComparator {

    private static final Logger LOG = LoggerFactory.getLogger(TableComparator.class);

    private final TableRef source;
    private final TableRef target;
    private final ColumnMapping mapping;
    private final List<String> keyColumns;
    private final int chunkSize;
    private final int maxDifferences;

    private TableComparator(Builder builder) {
        this.source = Objects.requireNonNull(builder.source, "source");
        this.target = Objects.requireNonNull(builder.target, "target");
        this.mapping = builder.mapping;
        this.keyColumns = List.copyOf(builder.keyColumns);
        this.chunkSize = builder.chunkSize;
        this.maxDifferences = builder.maxDifferences;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Runs the comparison; SQL errors are rethrown unchecked with the tables named. */
    public ComparisonResult compare() {
        long started = System.nanoTime();
        try {
            ComparedColumns columns = ComparedColumns.resolve(source, target, mapping, keyColumns);
            ComparisonResult result = compareChunks(columns);
            LOG.info("Compared {} with {}: {} rows in {} chunks, {} differing rows, {} ms", source, target,
                    result.rowsCompared(), result.chunks(), result.differenceCount(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException("Comparing " + source + " with " + target + " failed: " + e.getMessage(), e);
        }
    }

    private ComparisonResult compareChunks(ComparedColumns columns) throws SQLException {
        ChunkDiff chunkDiff = new ChunkDiff(columns);
        List<RowDifference> kept = new ArrayList<>();
        long rows = 0;
        long differenceCount = 0;
        int chunks = 0;
        int mismatched = 0;
        List<Object> lower = null;
        boolean last = false;
        while (!last) {
            List<Object> upper = upperBound(columns.source, lower);
            last = upper == null;
            long[] sourceSum = checksum(columns.source, lower, upper);
            long[] targetSum = checksum(columns.target, lower, upper);
            chunks++;
            rows += sourceSum[0];
            if (sourceSum[0] != targetSum[0] || sourceSum[1] != targetSum[1]) {
                mismatched++;
                List<RowDifference> found = chunkDiff.diff(lower, upper);
                differenceCount += found.size();
                found.stream().limit(Math.max(0, maxDifferences - kept.size())).forEach(kept::add);
                LOG.debug("Chunk {} of {} differs: {} rows", chunks, target, found.size());
            }
            lower = upper;
        }
        return new ComparisonResult(source + " vs " + target, rows, chunks, mismatched, differenceCount, kept, "");
    }

    private List<Object> upperBound(ComparedColumns.SideSql side, List<Object> lower) throws SQLException {
        try (PreparedStatement statement = side.table().connection()
                .prepareStatement(ChunkQueries.upperBound(side, lower != null, chunkSize))) {
            ChunkQueries.bind(statement, lower, null);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                List<Object> key = new ArrayList<>();
                for (int i = 1; i <= side.keys().size(); i++) {
                    key.add(rows.getObject(i));
                }
                return key;
            }
        }
    }

    private static long[] checksum(ComparedColumns.SideSql side, List<Object> lower, List<Object> upper)
            throws SQLException {
        try (PreparedStatement statement = side.table().connection()
                .prepareStatement(ChunkQueries.checksum(side, lower != null, upper != null))) {
            ChunkQueries.bind(statement, lower, upper);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return new long[] {rows.getLong(1), rows.getLong(2)};
            }
        }
    }

    /** Options of a {@link TableComparator}. */
    public static final class Builder {
        private TableRef source;
        private TableRef target;
        private ColumnMapping mapping = ColumnMapping.byName();
        private List<String> keyColumns = List.of();
        private int chunkSize = 1000;
        private int maxDifferences = 1000;

        private Builder() {
        }

        /** The source table; the connection stays open and owned by the caller. */
        public Builder source(Connection connection, String database, String table) {
            this.source = new TableRef(connection, database, table);
            return this;
        }

        /** The target table; the connection stays open and owned by the caller. */
        public Builder target(Connection connection, String database, String table) {
            this.target = new TableRef(connection, database, table);
            return this;
        }

        /** How target columns map to the source (default: by name, every target column). */
        public Builder mapping(ColumnMapping columnMapping) {
            this.mapping = Objects.requireNonNull(columnMapping, "mapping");
            return this;
        }

        /** The target key columns (default: the target's primary key); mapped to the source by the mapping. */
        public Builder keyColumns(String... targetColumns) {
            this.keyColumns = List.of(targetColumns);
            return this;
        }

        /** Source rows per chunk (default 1000). */
        public Builder chunkSize(int rows) {
            if (rows < 1) {
                throw new IllegalArgumentException("chunkSize must be at least 1, was " + rows);
            }
            this.chunkSize = rows;
            return this;
        }

        /** How many differing rows the result keeps (default 1000); all are counted. */
        public Builder maxDifferences(int rows) {
            this.maxDifferences = rows;
            return this;
        }

        public TableComparator build() {
            return new TableComparator(this);
        }
    }
}
