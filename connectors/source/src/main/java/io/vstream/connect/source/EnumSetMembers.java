package io.vstream.connect.source;

import io.vstream.connect.core.sql.SqlIdentifiers;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ENUM and SET members as the table really has them. MariaDB 10.11 keeps its metadata text ({@code
 * information_schema.COLUMNS.COLUMN_TYPE}, {@code SHOW CREATE TABLE}) in 3-byte UTF-8, so a member outside the Basic
 * Multilingual Plane ({@code '😀'}) is shown there as {@code '?'}, though the table stores and returns it exactly.
 * The copy phase maps a row's member to its index by these members, and a clone target is created from {@code SHOW
 * CREATE TABLE}: both need the real members.
 * <p>
 * The real members are read without any privilege beyond the table's SELECT: a compound statement declares a
 * variable of the column's own type ({@code TYPE OF db.table.column}, MariaDB 10.3+), sets it to each index (an ENUM)
 * or bit (a SET) and returns each member's bytes in hex, converted to utf8mb4. A definition is repaired only where
 * the shown members are exactly the real ones with each character outside the BMP replaced by {@code '?'}.
 */
final class EnumSetMembers {
    private static final HexFormat HEX = HexFormat.of();

    private EnumSetMembers() {
    }

    /** Whether metadata text may have lost characters of these members (any of them shows a {@code '?'}). */
    static boolean mayBeLossy(String[] shown) {
        for (String m : shown) {
            if (m.indexOf('?') >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether a column of this character set can hold a character outside the BMP (which metadata loses). */
    static boolean holdsCharactersOutsideTheBmp(String charset) {
        return charset != null && switch (charset.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf16", "utf16le", "utf32", "gb18030" -> true;
            default -> false;
        };
    }

    /** How 3-byte UTF-8 metadata shows {@code member}: each character outside the BMP becomes {@code '?'}. */
    static String shown(String member) {
        StringBuilder out = new StringBuilder(member.length());
        member.codePoints().forEach(cp -> {
            if (Character.isSupplementaryCodePoint(cp)) {
                out.append('?');
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.toString();
    }

    /** Whether {@code shown} is how the metadata shows {@code exact}, member by member. */
    static boolean shownAs(String[] exact, String[] shown) {
        if (exact.length != shown.length) {
            return false;
        }
        for (int i = 0; i < exact.length; i++) {
            if (!shown(exact[i]).equals(shown[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads the column's {@code count} members from the table's own definition (MariaDB only).
     *
     * @param set whether the column is a SET (its members are bits) rather than an ENUM (indexes)
     */
    static String[] read(Connection conn, String database, String table, String column, boolean set, int count)
            throws SQLException {
        String member = set ? "1 << (i - 1)" : "i";
        String sql = "/* vstream-connect:source */ BEGIN NOT ATOMIC"
                + " DECLARE v TYPE OF " + SqlIdentifiers.qualify(database, table) + "." + SqlIdentifiers.quote(column)
                + "; DECLARE r LONGTEXT DEFAULT ''; DECLARE i INT DEFAULT 1;"
                + " WHILE i <= " + count + " DO SET v = " + member + ";"
                + " SET r = CONCAT(r, HEX(CONVERT(v USING utf8mb4)), ','); SET i = i + 1; END WHILE;"
                + " SELECT r; END";
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new SQLException("no members returned for column " + column);
            }
            String[] hex = rs.getString(1).split(",", -1);
            String[] out = new String[count];
            for (int i = 0; i < count; i++) {
                out[i] = new String(HEX.parseHex(hex[i]), StandardCharsets.UTF_8);
            }
            return out;
        }
    }

    /** The column type that spells these members: {@code enum('a','b''c')} or {@code set(...)}. */
    static String columnType(boolean set, String[] members) {
        StringBuilder out = new StringBuilder(set ? "set(" : "enum(");
        for (int i = 0; i < members.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append('\'').append(members[i].replace("\\", "\\\\").replace("'", "''")).append('\'');
        }
        return out.append(')').toString();
    }

    /**
     * {@code createTable} ({@code SHOW CREATE TABLE}'s text) with the ENUM and SET columns of {@code exact} (by column
     * name) spelt with their real members, where the text shows exactly those members with the lost characters as
     * {@code '?'}; any other column, or one whose text shows other members (the table changed since), is left as is.
     */
    static String repair(String createTable, Map<String, String[]> exact) {
        String out = createTable;
        for (Map.Entry<String, String[]> e : exact.entrySet()) {
            String head = "\n  " + SqlIdentifiers.quote(e.getKey()) + " ";
            int at = out.indexOf(head);
            if (at < 0) {
                continue;
            }
            int typeStart = at + head.length();
            String rest = out.substring(typeStart).toLowerCase(Locale.ROOT);
            boolean set = rest.startsWith("set(");
            if (!set && !rest.startsWith("enum(")) {
                continue;
            }
            Parsed shown = parse(out, out.indexOf('(', typeStart) + 1);
            if (shown == null || Arrays.equals(shown.members, e.getValue()) || !shownAs(e.getValue(), shown.members)) {
                continue;
            }
            out = out.substring(0, typeStart) + columnType(set, e.getValue()) + out.substring(shown.end);
        }
        return out;
    }

    /** The members a column type spells ({@code enum('a','b''c')}); none when it spells no list. */
    static String[] members(String columnType) {
        int open = columnType.indexOf('(');
        Parsed p = open < 0 ? null : parse(columnType, open + 1);
        return p == null ? new String[0] : p.members;
    }

    private record Parsed(String[] members, int end) {
    }

    /** The quoted members from {@code from} (just after the opening parenthesis) to the closing one; null if odd. */
    private static Parsed parse(String text, int from) {
        List<String> members = new ArrayList<>();
        int i = from;
        while (i < text.length()) {
            if (text.charAt(i) != '\'') {
                return null;
            }
            StringBuilder cur = new StringBuilder();
            i++;
            while (true) {
                if (i >= text.length()) {
                    return null;
                }
                char c = text.charAt(i);
                if (c == '\'' && i + 1 < text.length() && text.charAt(i + 1) == '\'') {
                    cur.append('\'');
                    i += 2;
                } else if (c == '\'') {
                    i++;
                    break;
                } else if (c == '\\' && i + 1 < text.length()) {
                    cur.append(text.charAt(i + 1));
                    i += 2;
                } else {
                    cur.append(c);
                    i++;
                }
            }
            members.add(cur.toString());
            if (i < text.length() && text.charAt(i) == ')') {
                return new Parsed(members.toArray(new String[0]), i + 1);
            }
            if (i >= text.length() || text.charAt(i) != ',') {
                return null;
            }
            i++;
        }
        return null;
    }
}
