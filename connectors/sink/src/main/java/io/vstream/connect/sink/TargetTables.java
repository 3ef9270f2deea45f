package io.vstream.connect.sink;

import io.vstream.connect.jdbc.StreamTables;
import io.vstream.connect.core.sql.SqlIdentifiers;
import io.vstream.connect.core.sql.SqlTag;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Knows the target tables of one partition's stream: maps each source table to its target (database and table name
 * formats), creates a missing one from the source's definition in its FIELD record (with the configured storage
 * engine), records in the state database that the stream holds it ({@link StreamTables}), and keeps each table's key
 * and NOT NULL columns. DDL runs on its own connection so that it never commits the
 * applier's open transaction.
 */
final class TargetTables {
    private static final Logger LOG = LoggerFactory.getLogger(TargetTables.class);
    private static final Pattern CREATE_HEAD = Pattern.compile("^\\s*CREATE\\s+TABLE\\s+(`(?:[^`]|``)+`|\\S+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ENGINE = Pattern.compile("ENGINE\\s*=\\s*\\w+", Pattern.CASE_INSENSITIVE);

    private final SinkSettings settings;
    private final TargetConnections connections;
    private final Map<String, TargetTable> tables = new HashMap<>();
    private Connection ddl;
    private boolean recordReady;

    TargetTables(SinkSettings settings, TargetConnections connections) {
        this.settings = settings;
        this.connections = connections;
    }

    /** The target of a source table whose FIELD has been seen; {@code null} if none was. */
    TargetTable get(String sourceTable) {
        return tables.get(sourceTable);
    }

    /**
     * The target of a source table whose FIELD came before the point this task resumed from: read from the target
     * table itself (its primary key and NOT NULL columns); {@code null} when it does not exist there.
     */
    TargetTable lookup(String sourceDb, String keyspace, String sourceTable) throws SQLException {
        TargetTable t = lookupTable(settings.targetDatabase(sourceDb, keyspace), settings.targetTable(sourceTable));
        if (t != null) {
            tables.put(sourceTable, t);
        }
        return t;
    }

    private TargetTable lookupTable(String db, String table) throws SQLException {
        List<String> keys = new ArrayList<>();
        Set<String> notNull = new HashSet<>();
        Set<String> generated = new HashSet<>();
        List<String> columns = new ArrayList<>();
        try (PreparedStatement ps = ddl().prepareStatement("SELECT COLUMN_NAME, IS_NULLABLE, COLUMN_KEY, EXTRA"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                boolean any = false;
                while (rs.next()) {
                    any = true;
                    columns.add(rs.getString(1));
                    if ("NO".equals(rs.getString(2))) {
                        notNull.add(rs.getString(1));
                    }
                    if (isGenerated(rs.getString(4))) {
                        generated.add(rs.getString(1).toLowerCase(java.util.Locale.ROOT));
                    }
                }
                if (!any) {
                    return null;
                }
            }
        }
        try (PreparedStatement ps = ddl().prepareStatement("SELECT COLUMN_NAME FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.add(rs.getString(1));
                }
            }
        }
        return new TargetTable(db, table, keys, notNull, generated, OriginalNames.of(columns));
    }

    /** Whether {@code information_schema.COLUMNS.EXTRA} says the server computes the column (VIRTUAL or STORED). */
    static boolean isGenerated(String extra) {
        return extra != null && extra.toUpperCase(java.util.Locale.ROOT).contains("GENERATED");
    }

    /** Takes a FIELD record: maps the table and creates it on the target when missing (and allowed). */
    TargetTable define(Struct field) throws SQLException {
        String keyspace = field.getString("keyspace");
        String sourceDb = field.getString("db");
        String sourceTable = field.getString("table");
        String db = settings.targetDatabase(sourceDb, keyspace);
        String table = settings.targetTable(sourceTable);
        List<String> keys = new ArrayList<>(field.<String>getArray("key_columns"));
        Set<String> notNull = new HashSet<>();
        List<String> columns = new ArrayList<>();
        for (Object o : field.getArray("columns")) {
            Struct c = (Struct) o;
            columns.add(c.getString("name"));
            if (!c.getBoolean("nullable")) {
                notNull.add(c.getString("name"));
            }
        }
        if (!exists(db, table)) {
            String create = field.getString("create_table");
            if (!settings.tableCreate()) {
                throw new ConnectException("Target table " + SqlIdentifiers.qualify(db, table) + " does not exist"
                        + " and table.create is false: create it, or set table.create=true");
            }
            if (create == null) {
                throw new ConnectException("Target table " + SqlIdentifiers.qualify(db, table) + " does not exist"
                        + " and the FIELD record of source table " + sourceTable + " carries no definition to create"
                        + " it from; create it on the target");
            }
            createTable(db, table, create);
        }
        record(new StreamTables.Entry(sourceDb, sourceTable, db, table));
        TargetTable existing = lookupTable(db, table); // the server's word on which columns it computes
        return new TargetTable(db, table, keys, notNull,
                existing == null ? Set.of() : existing.generatedColumns(), OriginalNames.of(columns));
    }

    /**
     * Records in the state database that this stream holds the table (before the stream's position passes its FIELD,
     * so a restart that skips the FIELD finds it recorded): the clone's hand-off compares exactly these tables.
     */
    private void record(StreamTables.Entry entry) throws SQLException {
        if (!recordReady) {
            StreamTables.ensure(ddl(), settings.stateDatabase());
            recordReady = true;
        }
        StreamTables.record(ddl(), settings.stateDatabase(), settings.stream(), entry);
    }

    /** Forgets every table's shape: the next row or FIELD looks it up again. */
    void forget() {
        tables.clear();
    }

    /** The ghost table of an online-DDL migration on this shard, written through the plan's column mapping. */
    TargetTable ghost(io.vstream.connect.jdbc.MigrationPlans.Plan plan) throws SQLException {
        TargetTable shape = lookupTable(plan.database(), plan.ghostTable());
        if (shape == null) {
            throw new ConnectException("The ghost table `" + plan.database() + "`.`" + plan.ghostTable() + "` of"
                    + " migration " + plan.migration() + " does not exist on " + settings.host() + ":" + settings.port()
                    + " (cancelled?)");
        }
        List<String> sourceColumns = new ArrayList<>(plan.mapping().shared().keySet());
        sourceColumns.addAll(plan.mapping().dropped());
        TargetTable t = new TargetTable(plan.database(), plan.ghostTable(), plan.keyColumns(), shape.notNullColumns(),
                plan.mapping(), plan.newUniqueKey(), shape.generatedColumns(), OriginalNames.of(sourceColumns));
        tables.put(plan.table(), t);
        return t;
    }

    /** Runs a DDL statement of the source on the target, in the target database of the source database. */
    void applyDdl(String sourceDb, String keyspace, String statement) throws SQLException {
        String db = settings.targetDatabase(sourceDb == null ? "" : sourceDb, keyspace);
        if (sourceDb != null && !db.equals(sourceDb) && statement.contains(sourceDb + ".")) {
            throw new ConnectException("DDL statement names the source database `" + sourceDb + "` but tables go to `"
                    + db + "`: it cannot be replayed safely; apply it on the target yourself, or set ddl.apply=false");
        }
        try (Statement st = ddl().createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(db));
            st.execute("USE " + SqlIdentifiers.quote(db));
            st.execute(statement);
        }
        tables.clear(); // shapes come again with the next FIELD
    }

    private boolean exists(String db, String table) throws SQLException {
        try (PreparedStatement ps = ddl().prepareStatement("SELECT 1 FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, db);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private void createTable(String db, String table, String sourceCreate) throws SQLException {
        Matcher head = CREATE_HEAD.matcher(sourceCreate);
        if (!head.find()) {
            throw new ConnectException("Cannot read the source definition of " + table + " to create it");
        }
        String sql = "CREATE TABLE IF NOT EXISTS " + SqlIdentifiers.qualify(db, table)
                + sourceCreate.substring(head.end());
        if (!settings.tableEngine().isEmpty()) {
            Matcher m = ENGINE.matcher(sql);
            sql = m.find() ? m.replaceFirst("ENGINE=" + settings.tableEngine())
                    : sql + " ENGINE=" + settings.tableEngine();
        }
        try (Statement st = ddl().createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + SqlIdentifiers.quote(db));
            st.execute(SqlTag.tag("sink", sql));
        }
        LOG.info("Created target table {}{}", SqlIdentifiers.qualify(db, table),
                settings.tableEngine().isEmpty() ? "" : " with ENGINE=" + settings.tableEngine());
    }

    private Connection ddl() throws SQLException {
        if (ddl == null || !ddl.isValid(2)) {
            ddl = connections.open();
            ddl.setAutoCommit(true);
        }
        return ddl;
    }

    void close() {
        if (ddl != null) {
            try {
                ddl.close();
            } catch (SQLException e) {
                // closing anyway
            }
            ddl = null;
        }
    }
}
