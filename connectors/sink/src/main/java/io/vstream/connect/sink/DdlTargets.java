package io.vstream.connect.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells which tables a DDL statement changes (ALTER, DROP, TRUNCATE, RENAME, CREATE ... the table itself), so that
 * an online migration fails when its table is changed underneath it, and not when a statement merely names it (our
 * own {@code CREATE TABLE _t_gho LIKE t}). Statements vstream-connect issued itself are recognised by their tag.
 */
final class DdlTargets {
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    private static final Pattern HEAD = Pattern.compile(
            "^\\s*(ALTER\\s+(?:ONLINE\\s+)?(?:IGNORE\\s+)?TABLE|DROP\\s+(?:TEMPORARY\\s+)?TABLE|TRUNCATE(?:\\s+TABLE)?"
                    + "|RENAME\\s+TABLE|CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMPORARY\\s+)?TABLE)\\s+"
                    + "(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?(.*)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern RENAME_HEAD = Pattern.compile("^\\s*RENAME\\s+TABLES?\\s+(.*?)\\s*;?\\s*$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern RENAME_TO = Pattern.compile(
            "\\s+TO\\s+((?:`(?:[^`]|``)+`|[\\w$]+)(?:\\s*\\.\\s*(?:`(?:[^`]|``)+`|[\\w$]+))?)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME = Pattern.compile("\\s*((?:`(?:[^`]|``)+`|[\\w$]+)(?:\\s*\\.\\s*(?:`(?:[^`]|``)+`|[\\w$]+))?)");

    private DdlTargets() {
    }

    /** A table a statement changes: its database as written ({@code null} when unqualified) and its name. */
    record Target(String database, String table) {
        /** Whether this is {@code database.table}, an unqualified name resolving in {@code sessionDb}. */
        boolean is(String sessionDb, String database, String table) {
            String db = this.database != null ? this.database : sessionDb;
            // a DDL with no database of its own, run with none selected, cannot name the table: treat as unknown
            return this.table.equalsIgnoreCase(table) && (db == null || db.equalsIgnoreCase(database));
        }
    }

    /**
     * Whether {@code statement}, run in the session database {@code sessionDb} (the binlog's default database; may be
     * null), changes {@code database.table}. A same-named table of another database is another table.
     */
    static boolean touches(String statement, String sessionDb, String database, String table) {
        if (statement == null || statement.contains("vstream-connect:")) {
            return false;
        }
        for (Target t : qualifiedTargets(statement)) {
            if (t.is(sessionDb, database, table)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The name {@code database.table} gets from {@code statement} when the statement is a cut-over's swap: a
     * {@code RENAME TABLE} that renames {@code table} to that name and {@code ghost} to {@code table}, in one
     * statement; null for any other statement.
     */
    static String swappedAway(String statement, String sessionDb, String database, String table, String ghost) {
        if (statement == null) {
            return null;
        }
        Matcher head = RENAME_HEAD.matcher(COMMENT.matcher(statement).replaceAll(" "));
        if (!head.matches()) {
            return null;
        }
        String rest = head.group(1);
        String away = null;
        boolean ghostIn = false;
        int pos = 0;
        while (true) {
            Matcher from = NAME.matcher(rest);
            if (!from.find(pos) || from.start() != pos) {
                return null;
            }
            Matcher to = RENAME_TO.matcher(rest.substring(from.end()));
            if (!to.lookingAt()) {
                return null;
            }
            Target a = target(from.group(1));
            Target b = target(to.group(1));
            if (a.is(sessionDb, database, table) && b.is(sessionDb, database, b.table())) {
                away = b.table();
            } else if (a.is(sessionDb, database, ghost) && b.is(sessionDb, database, table)) {
                ghostIn = true;
            }
            pos = from.end() + to.end();
            Matcher comma = Pattern.compile("^\\s*,").matcher(rest.substring(pos));
            if (!comma.find()) {
                break;
            }
            pos += comma.end();
        }
        return ghostIn && rest.substring(pos).isBlank() ? away : null;
    }

    /** The tables a statement changes, without database names; empty for other statements. */
    static List<String> targets(String statement) {
        List<String> out = new ArrayList<>();
        qualifiedTargets(statement).forEach(t -> out.add(t.table()));
        return out;
    }

    /** The tables a statement changes, with the database where the statement names one; empty for other statements. */
    static List<Target> qualifiedTargets(String statement) {
        List<Target> out = new ArrayList<>();
        Matcher head = HEAD.matcher(COMMENT.matcher(statement).replaceAll(" "));
        if (!head.matches()) {
            return out;
        }
        String kind = head.group(1).toUpperCase(Locale.ROOT);
        String rest = head.group(2);
        boolean list = kind.startsWith("DROP") || kind.startsWith("RENAME");
        int pos = 0;
        while (true) {
            Matcher m = NAME.matcher(rest);
            if (!m.find(pos) || m.start() != pos) {
                break;
            }
            out.add(target(m.group(1)));
            pos = m.end();
            if (!list) {
                break;
            }
            String tail = rest.substring(pos);
            Matcher to = Pattern.compile("^\\s*TO\\s+", Pattern.CASE_INSENSITIVE).matcher(tail);
            if (kind.startsWith("RENAME") && to.find()) {
                Matcher target = NAME.matcher(tail.substring(to.end()));
                if (target.lookingAt()) {
                    pos += to.end() + target.end();
                }
            }
            Matcher comma = Pattern.compile("^\\s*,").matcher(rest.substring(pos));
            if (!comma.find()) {
                break;
            }
            pos += comma.end();
        }
        return out;
    }

    private static Target target(String name) {
        int dot = lastDotOutsideQuotes(name);
        if (dot < 0) {
            return new Target(null, unquote(name.trim()));
        }
        return new Target(unquote(name.substring(0, dot).trim()), unquote(name.substring(dot + 1).trim()));
    }

    private static String unquote(String n) {
        if (n.startsWith("`") && n.endsWith("`") && n.length() >= 2) {
            return n.substring(1, n.length() - 1).replace("``", "`");
        }
        return n;
    }

    private static int lastDotOutsideQuotes(String s) {
        boolean quoted = false;
        int last = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '`') {
                quoted = !quoted;
            } else if (c == '.' && !quoted) {
                last = i;
            }
        }
        return last;
    }
}
