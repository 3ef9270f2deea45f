package io.vstream.connect.it;

import io.vstream.connect.local.load.LoadTransaction;
import io.vstream.connect.local.load.RowChange;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;

/**
 * Checks a shard's log against the write load's model of acknowledged commits: every acknowledged transaction is
 * in the log with the same row changes (op, key and full images), transactions appear in commit order (first
 * occurrences), and, when exactly-once is expected, no transaction appears twice.
 */
final class StreamVerifier {
    private StreamVerifier() {
    }

    /** Returns the problems found (empty when the log is right), at most {@code limit} of them. */
    static List<String> verify(ShardLog log, List<LoadTransaction> acknowledged, boolean exactlyOnce, int limit) {
        List<String> problems = new ArrayList<>();
        Map<String, ShardLog.Txn> byGtid = new HashMap<>();
        Set<String> seen = new HashSet<>();
        long lastSeq = -1;
        for (ShardLog.Txn t : log.transactions) {
            if (!seen.add(t.gtid())) {
                if (exactlyOnce) {
                    add(problems, limit, "transaction " + t.gtid() + " appears more than once");
                }
                continue;
            }
            long seq = Long.parseLong(t.gtid().substring(t.gtid().lastIndexOf('-') + 1));
            if (seq <= lastSeq) {
                add(problems, limit, "transaction " + t.gtid() + " comes after sequence " + lastSeq);
            }
            lastSeq = seq;
            byGtid.put(t.gtid(), t);
        }
        for (LoadTransaction lt : acknowledged) {
            if (lt.outcome() != LoadTransaction.Outcome.COMMITTED || lt.gtid() == null) {
                continue;
            }
            ShardLog.Txn t = byGtid.get(lt.gtid());
            if (t == null) {
                add(problems, limit, "acknowledged transaction " + lt.gtid() + " is missing from the log");
                continue;
            }
            List<RowChange> changes = lt.changes().stream().filter(c -> c.op() != RowChange.Op.UPDATE
                    || !c.before().equals(c.after())).toList();
            if (changes.size() != t.rows().size()) {
                add(problems, limit, "transaction " + lt.gtid() + " has " + t.rows().size() + " row events, expected "
                        + changes.size());
                continue;
            }
            for (int i = 0; i < changes.size(); i++) {
                String diff = compare(changes.get(i), t.rows().get(i));
                if (diff != null) {
                    add(problems, limit, "transaction " + lt.gtid() + " row " + i + ": " + diff);
                }
            }
        }
        return problems;
    }

    private static void add(List<String> problems, int limit, String p) {
        if (problems.size() < limit) {
            problems.add(p);
        }
    }

    private static String compare(RowChange expected, Struct envelope) {
        String op = envelope.getString("op");
        String wantOp = switch (expected.op()) {
            case INSERT -> "c";
            case UPDATE -> "u";
            case DELETE -> "d";
        };
        if (!wantOp.equals(op)) {
            return "op " + op + ", expected " + wantOp + " (" + expected + ")";
        }
        String b = compareImage("before", expected.before(), envelope.getStruct("before"));
        return b != null ? b : compareImage("after", expected.after(), envelope.getStruct("after"));
    }

    private static String compareImage(String which, Map<String, Object> expected, Struct actual) {
        if (expected == null || actual == null) {
            return (expected == null) == (actual == null) ? null : which + " image presence differs";
        }
        for (Field f : actual.schema().fields()) {
            if (!expected.containsKey(f.name())) {
                continue;
            }
            Object want = normalize(expected.get(f.name()));
            Object got = normalize(actual.get(f));
            if (want == null ? got != null : !want.equals(got)) {
                return which + "." + f.name() + " differs";
            }
        }
        return null;
    }

    private static Object normalize(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d.stripTrailingZeros().toPlainString();
        }
        if (v instanceof LocalDateTime t) {
            return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1000;
        }
        if (v instanceof java.sql.Timestamp ts) {
            return normalize(ts.toLocalDateTime());
        }
        if (v instanceof Number n && !(v instanceof BigDecimal)) {
            return n.longValue();
        }
        return v.toString();
    }
}
