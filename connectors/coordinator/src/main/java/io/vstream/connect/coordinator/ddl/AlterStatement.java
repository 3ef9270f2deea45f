package io.vstream.connect.coordinator.ddl;

import io.vstream.connect.coordinator.ddl.AlterRefusedException.Reason;
import io.vstream.connect.core.sql.SqlIdentifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The operator's ALTER TABLE text, scanned the way gh-ost scans it: no SQL grammar here (the server parses the ALTER
 * when it runs it on the ghost table), only a tokenizer that knows quotes and comments, so that this class can tell,
 * before anything is created, the ALTER's body (what follows {@code ALTER TABLE <t>}), the column renames it asks for
 * ({@code CHANGE [COLUMN] old new ...}, {@code RENAME COLUMN old TO new}), and what it does that an online migration
 * refuses: renaming the table, adding a foreign key, moving partitions to or from another table (EXCHANGE, CONVERT),
 * touching tablespaces, executable comments, a second statement. Touches no server.
 */
public final class AlterStatement {
    /** A column rename the ALTER asks for; {@code clause} is how it was spelt, for messages. */
    public record Rename(String from, String to, String clause) {
    }

    private static final Set<String> RENAMEABLE = Set.of("COLUMN", "INDEX", "KEY");
    /** Words after DROP or ADD (without COLUMN) that name something other than a column. */
    private static final Set<String> NOT_A_COLUMN = Set.of("INDEX", "KEY", "PRIMARY", "UNIQUE", "FULLTEXT", "SPATIAL",
            "FOREIGN", "CONSTRAINT", "CHECK", "PARTITION", "PERIOD", "SYSTEM", "VERSIONING", "IF");

    private final String body;
    private final List<Rename> renames;
    private final Set<String> replaced;
    private final boolean ignore;

    private AlterStatement(String body, List<Rename> renames, Set<String> replaced, boolean ignore) {
        this.body = body;
        this.renames = List.copyOf(renames);
        this.replaced = Set.copyOf(replaced);
        this.ignore = ignore;
    }

    /**
     * Scans {@code text}: either the body of an ALTER of {@code table} ({@code ADD INDEX k (v), DROP COLUMN note}) or
     * the whole statement ({@code ALTER TABLE t ADD INDEX ...}, which must name {@code table}, optionally qualified by
     * {@code database}). A trailing {@code ;} is dropped.
     *
     * @throws AlterRefusedException naming the problem and its fix, before anything is created
     */
    public static AlterStatement parse(String database, String table, String text) throws AlterRefusedException {
        if (text == null || text.isBlank()) {
            throw invalid("The ALTER is empty; give what follows ALTER TABLE " + SqlIdentifiers.quote(table)
                    + ", e.g. \"ADD INDEX k (v), DROP COLUMN note\"");
        }
        List<Token> tokens = new ArrayList<>(lex(text));
        while (!tokens.isEmpty() && tokens.get(tokens.size() - 1).isSymbol(';')) {
            tokens.remove(tokens.size() - 1);
        }
        for (Token t : tokens) {
            if (t.isSymbol(';')) {
                throw invalid("The ALTER holds more than one statement (a ';' at offset " + t.start + "); give one"
                        + " ALTER TABLE of " + SqlIdentifiers.quote(table) + " per migration");
            }
        }
        int first = 0;
        boolean ignore = false;
        if (is(tokens, 0, "ALTER") && (is(tokens, 1, "TABLE") || is(tokens, 1, "ONLINE") || is(tokens, 1, "IGNORE"))) {
            int i = 1;
            if (is(tokens, i, "ONLINE")) {
                i++;
            }
            if (is(tokens, i, "IGNORE")) {
                ignore = true;
                i++;
            }
            if (!is(tokens, i, "TABLE")) {
                throw invalid("Only ALTER TABLE can run as an online migration; the statement starts \""
                        + text.strip().substring(0, Math.min(40, text.strip().length())) + "\"");
            }
            i++;
            if (is(tokens, i, "IF") && is(tokens, i + 1, "EXISTS")) {
                i += 2;
            }
            if (i >= tokens.size() || !tokens.get(i).isName()) {
                throw invalid("The ALTER TABLE statement names no table; give ALTER TABLE "
                        + SqlIdentifiers.quote(table) + " ... or only what follows it");
            }
            String named = tokens.get(i).name();
            String namedDb = null;
            if (i + 2 < tokens.size() && tokens.get(i + 1).isSymbol('.') && tokens.get(i + 2).isName()) {
                namedDb = named;
                named = tokens.get(i + 2).name();
                i += 3;
            } else {
                i++;
            }
            if (!named.equalsIgnoreCase(table) || namedDb != null && !namedDb.equalsIgnoreCase(database)) {
                throw invalid("The statement alters " + (namedDb == null ? "" : SqlIdentifiers.quote(namedDb) + ".")
                        + SqlIdentifiers.quote(named) + ", but this migration is of "
                        + SqlIdentifiers.qualify(database, table) + "; fix the statement or the workflow's table");
            }
            first = i;
        }
        List<Token> body = tokens.subList(first, tokens.size());
        if (body.isEmpty()) {
            throw invalid("The ALTER of " + SqlIdentifiers.quote(table) + " changes nothing; give at least one"
                    + " alteration, e.g. \"ADD INDEX k (v)\"");
        }
        refuseUnsupported(body, table);
        String bodyText = text.substring(body.get(0).start, body.get(body.size() - 1).end);
        return new AlterStatement(bodyText, renames(body), replaced(body), ignore);
    }

    /** What follows {@code ALTER TABLE <t>}, as the operator wrote it (comments inside kept, trailing ';' dropped). */
    public String body() {
        return body;
    }

    /** The column renames the ALTER asks for, in its order (case-only renames are not renames: names ignore case). */
    public List<Rename> renames() {
        return renames;
    }

    /**
     * The columns the ALTER drops and adds again under the same name ({@code DROP COLUMN c1, ADD COLUMN c1 INT NOT NULL
     * DEFAULT 47}), lower case: the server's ALTER gives the new column its default, so the old values must not be
     * carried over by name.
     */
    public Set<String> replaced() {
        return replaced;
    }

    /** Whether the statement said {@code ALTER IGNORE TABLE} (which a migration through a ghost cannot honour). */
    public boolean ignore() {
        return ignore;
    }

    private static void refuseUnsupported(List<Token> body, String table) throws AlterRefusedException {
        int depth = 0;
        for (int k = 0; k < body.size(); k++) {
            Token t = body.get(k);
            Token next = k + 1 < body.size() ? body.get(k + 1) : null;
            if (t.isSymbol('(')) {
                depth++;
            } else if (t.isSymbol(')') && --depth < 0) {
                throw invalid("The ALTER has an unmatched ')' at offset " + t.start + "; fix the statement");
            }
            if (t.is("REFERENCES") || t.is("FOREIGN") && next != null && next.is("KEY")) {
                throw new AlterRefusedException(Reason.FOREIGN_KEY, "The ALTER adds a foreign key (\"" + t.text
                        + "\" at offset " + t.start + "): the cut-over's RENAME cannot carry foreign keys over to the"
                        + " new table. Leave the foreign key out of the migration and add it afterwards with a"
                        + " direct ALTER TABLE.");
            }
            if (depth > 0) {
                continue;
            }
            if (t.is("RENAME") && (next == null || !next.isWordIn(RENAMEABLE))) {
                throw new AlterRefusedException(Reason.RENAMES_TABLE, "The ALTER renames the table (\"RENAME"
                        + (next == null ? "" : " " + next.text) + "\" at offset " + t.start + "): an online"
                        + " migration keeps the table's name. Remove the RENAME from the ALTER and rename "
                        + SqlIdentifiers.quote(table) + " on its own with RENAME TABLE (it is instant), before or after"
                        + " the migration.");
            }
            boolean tablespace = (t.is("DISCARD") || t.is("IMPORT")) && next != null
                    && (next.is("TABLESPACE") || next.is("PARTITION"));
            boolean otherTable = t.is("EXCHANGE") && next != null && next.is("PARTITION")
                    || t.is("CONVERT") && next != null && (next.is("PARTITION") || next.is("TABLE"));
            if (tablespace || otherTable) {
                throw new AlterRefusedException(Reason.UNSUPPORTED_OPERATION, "The ALTER does \"" + t.text + " "
                        + next.text + "\", which works on files or on another table, not on the table's schema: a"
                        + " ghost table cannot stand in for it. Run it directly, outside the migration.");
            }
        }
        if (depth != 0) {
            throw invalid("The ALTER has an unclosed '('; fix the statement");
        }
    }

    private static List<Rename> renames(List<Token> body) {
        List<Rename> out = new ArrayList<>();
        List<List<Token>> clauses = clauses(body);
        for (int c = 0; c < clauses.size(); c++) {
            List<Token> clause = clauses.get(c);
            int i = start(clause, c);
            if (is(clause, i, "CHANGE")) {
                int j = i + 1;
                if (is(clause, j, "COLUMN")) {
                    j++;
                }
                if (is(clause, j, "IF") && is(clause, j + 1, "EXISTS")) {
                    j += 2;
                }
                if (j + 1 < clause.size() && clause.get(j).isName() && clause.get(j + 1).isName()) {
                    add(out, clause.get(j).name(), clause.get(j + 1).name(), "CHANGE COLUMN");
                }
            } else if (is(clause, i, "RENAME") && is(clause, i + 1, "COLUMN")) {
                int j = i + 2;
                if (is(clause, j, "IF") && is(clause, j + 1, "EXISTS")) {
                    j += 2;
                }
                if (j + 2 < clause.size() && clause.get(j).isName() && clause.get(j + 1).is("TO")
                        && clause.get(j + 2).isName()) {
                    add(out, clause.get(j).name(), clause.get(j + 2).name(), "RENAME COLUMN");
                }
            }
        }
        return out;
    }

    private static Set<String> replaced(List<Token> body) {
        Set<String> dropped = new java.util.HashSet<>();
        Set<String> added = new java.util.HashSet<>();
        List<List<Token>> clauses = clauses(body);
        for (int c = 0; c < clauses.size(); c++) {
            List<Token> clause = clauses.get(c);
            int i = start(clause, c);
            boolean drop = is(clause, i, "DROP");
            if (!drop && !is(clause, i, "ADD")) {
                continue;
            }
            int j = i + 1;
            boolean column = is(clause, j, "COLUMN");
            if (column) {
                j++;
            }
            if (is(clause, j, "IF") && (drop ? is(clause, j + 1, "EXISTS")
                    : is(clause, j + 1, "NOT") && is(clause, j + 2, "EXISTS"))) {
                j += drop ? 2 : 3;
            }
            Set<String> into = drop ? dropped : added;
            if (!drop && j < clause.size() && clause.get(j).isSymbol('(')) {
                // ADD [COLUMN] (a INT, b INT): the first name of each part at depth 1
                int depth = 0;
                boolean expectName = true;
                for (int k = j; k < clause.size(); k++) {
                    Token t = clause.get(k);
                    if (t.isSymbol('(')) {
                        depth++;
                    } else if (t.isSymbol(')')) {
                        depth--;
                    } else if (depth == 1 && t.isSymbol(',')) {
                        expectName = true;
                    } else if (depth == 1 && expectName && t.isName()) {
                        if (column || !t.isWordIn(NOT_A_COLUMN)) {
                            into.add(t.name().toLowerCase(java.util.Locale.ROOT));
                        }
                        expectName = false;
                    }
                }
                continue;
            }
            if (j < clause.size() && clause.get(j).isName() && (column || !clause.get(j).isWordIn(NOT_A_COLUMN))) {
                into.add(clause.get(j).name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        dropped.retainAll(added);
        return dropped;
    }

    /** Where a clause's alteration starts: after the statement's leading {@code WAIT n} or {@code NOWAIT}. */
    private static int start(List<Token> clause, int clauseNo) {
        if (clauseNo == 0 && is(clause, 0, "NOWAIT")) {
            return 1;
        }
        if (clauseNo == 0 && is(clause, 0, "WAIT") && clause.size() > 1) {
            return 2;
        }
        return 0;
    }

    private static void add(List<Rename> out, String from, String to, String clause) {
        if (!from.equalsIgnoreCase(to)) {
            out.add(new Rename(from, to, clause));
        }
    }

    /** The body split at the commas outside parentheses. */
    private static List<List<Token>> clauses(List<Token> body) {
        List<List<Token>> out = new ArrayList<>();
        List<Token> current = new ArrayList<>();
        int depth = 0;
        for (Token t : body) {
            if (t.isSymbol('(')) {
                depth++;
            } else if (t.isSymbol(')')) {
                depth--;
            }
            if (depth == 0 && t.isSymbol(',')) {
                out.add(current);
                current = new ArrayList<>();
            } else {
                current.add(t);
            }
        }
        out.add(current);
        return out;
    }

    private static boolean is(List<Token> tokens, int i, String keyword) {
        return i < tokens.size() && tokens.get(i).is(keyword);
    }

    private static AlterRefusedException invalid(String message) {
        return new AlterRefusedException(Reason.INVALID_STATEMENT, message);
    }

    enum Kind { WORD, IDENT, QUOTED, STRING, SYMBOL }

    /** One token: {@code text} is the word or symbol as written, the name inside quotes, or a string's content. */
    record Token(Kind kind, String text, int start, int end) {
        boolean is(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }

        boolean isWordIn(Set<String> upperKeywords) {
            return kind == Kind.WORD && upperKeywords.contains(text.toUpperCase(java.util.Locale.ROOT));
        }

        boolean isSymbol(char c) {
            return kind == Kind.SYMBOL && text.charAt(0) == c;
        }

        boolean isName() {
            return kind == Kind.WORD || kind == Kind.IDENT || kind == Kind.QUOTED;
        }

        String name() {
            return text;
        }
    }

    /** Splits SQL into tokens, skipping whitespace and comments; refuses executable comments and open quotes. */
    static List<Token> lex(String s) throws AlterRefusedException {
        List<Token> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || c == '-' && s.startsWith("--", i) && (i + 2 == n
                    || Character.isWhitespace(s.charAt(i + 2)))) {
                int eol = s.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && s.startsWith("/*", i)) {
                if (s.startsWith("/*!", i) || s.startsWith("/*M!", i)) {
                    throw new AlterRefusedException(Reason.UNSUPPORTED_OPERATION, "The ALTER holds an executable"
                            + " comment (\"" + s.substring(i, Math.min(n, i + 10)) + "...\" at offset " + i + "),"
                            + " whose content the server runs; write that part of the ALTER without /*! ... */");
                }
                int close = s.indexOf("*/", i + 2);
                if (close < 0) {
                    throw invalid("The ALTER has an unclosed comment at offset " + i + "; fix the statement");
                }
                i = close + 2;
            } else if (c == '`' || c == '\'' || c == '"') {
                StringBuilder content = new StringBuilder();
                int end = quoted(s, i, c, content);
                Kind kind = c == '`' ? Kind.IDENT : c == '"' ? Kind.QUOTED : Kind.STRING;
                out.add(new Token(kind, content.toString(), i, end));
                i = end;
            } else if (isWordChar(c)) {
                int j = i;
                while (j < n && isWordChar(s.charAt(j))) {
                    j++;
                }
                out.add(new Token(Kind.WORD, s.substring(i, j), i, j));
                i = j;
            } else {
                out.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
                i++;
            }
        }
        return out;
    }

    /** Reads a quoted token starting at {@code start}; returns the offset after its closing quote. */
    private static int quoted(String s, int start, char quote, StringBuilder content) throws AlterRefusedException {
        int i = start + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\' && quote != '`' && i + 1 < s.length()) {
                content.append(c).append(s.charAt(i + 1));
                i += 2;
            } else if (c == quote) {
                if (i + 1 < s.length() && s.charAt(i + 1) == quote) {
                    content.append(quote);
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                content.append(c);
                i++;
            }
        }
        throw invalid("The ALTER has an unclosed " + quote + " at offset " + start + "; fix the statement");
    }

    private static boolean isWordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
                || c >= 0x80;
    }
}
