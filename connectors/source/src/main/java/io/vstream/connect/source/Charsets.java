package io.vstream.connect.source;

import io.vstream.connect.core.position.Flavor;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a server's binlog metadata means where MySQL and MariaDB differ: its collation ids (as binlog metadata
 * carries them) mapped to Java charsets, from the server's own {@code information_schema.COLLATIONS}, so text
 * decodes exactly; and its flavor, which decides how the TABLE_MAP signedness bits line up with the columns (MariaDB
 * gives YEAR a bit, MySQL does not). Reads {@code information_schema.COLLATIONS} once per connection.
 */
final class Charsets {
    private static final Map<String, String> MYSQL_TO_JAVA = Map.ofEntries(
            Map.entry("utf8mb4", "UTF-8"), Map.entry("utf8mb3", "UTF-8"), Map.entry("utf8", "UTF-8"),
            Map.entry("ascii", "US-ASCII"), Map.entry("ucs2", "UTF-16BE"),
            Map.entry("utf16", "UTF-16BE"), Map.entry("utf16le", "UTF-16LE"), Map.entry("utf32", "UTF-32BE"),
            Map.entry("latin2", "ISO-8859-2"), Map.entry("latin5", "ISO-8859-9"), Map.entry("latin7", "ISO-8859-13"),
            Map.entry("greek", "ISO-8859-7"), Map.entry("hebrew", "ISO-8859-8"), Map.entry("cp1250", "windows-1250"),
            Map.entry("cp1251", "windows-1251"), Map.entry("cp1256", "windows-1256"),
            Map.entry("cp1257", "windows-1257"), Map.entry("cp850", "IBM850"), Map.entry("cp852", "IBM852"),
            Map.entry("cp866", "IBM866"), Map.entry("koi8r", "KOI8-R"), Map.entry("koi8u", "KOI8-U"),
            Map.entry("sjis", "Shift_JIS"), Map.entry("cp932", "windows-31j"), Map.entry("ujis", "EUC-JP"),
            Map.entry("eucjpms", "EUC-JP"), Map.entry("euckr", "EUC-KR"), Map.entry("gb2312", "GB2312"),
            Map.entry("gbk", "GBK"), Map.entry("gb18030", "GB18030"), Map.entry("big5", "Big5"),
            Map.entry("tis620", "TIS-620"), Map.entry("macroman", "x-MacRoman"), Map.entry("macce", "x-MacCentralEurope"));

    private final Map<Integer, Charset> byCollation;
    private final Flavor flavor;

    Charsets(Map<Integer, Charset> byCollation, Flavor flavor) {
        this.byCollation = Map.copyOf(byCollation);
        this.flavor = Objects.requireNonNull(flavor, "flavor");
    }

    /** The collations of a MariaDB server (the servers we run). */
    Charsets(Map<Integer, Charset> byCollation) {
        this(byCollation, Flavor.MARIADB);
    }

    /** Reads the collations of a server of {@code flavor} (as {@link ServerPreflight} found it). */
    static Charsets load(Connection conn, Flavor flavor) throws SQLException {
        Map<Integer, Charset> map = new HashMap<>();
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("/* vstream-connect:source */ SELECT ID, CHARACTER_SET_NAME"
                     + " FROM information_schema.COLLATIONS WHERE ID IS NOT NULL")) {
            while (rs.next()) {
                Charset cs = javaCharset(rs.getString(2));
                if (cs != null) {
                    map.put(rs.getInt(1), cs);
                }
            }
        }
        return new Charsets(map, flavor);
    }

    /** The server's flavor: the TABLE_MAP metadata layout depends on it. */
    Flavor flavor() {
        return flavor;
    }

    /** The Java charset of a collation id; UTF-8 when the id is unknown; {@code null} for binary. */
    Charset forCollation(int id) {
        if (id == BinlogColumn.BINARY_COLLATION) {
            return null;
        }
        return byCollation.getOrDefault(id, StandardCharsets.UTF_8);
    }

    static Charset javaCharset(String mysqlName) {
        if (mysqlName == null || mysqlName.equalsIgnoreCase("binary")) {
            return null;
        }
        if (mysqlName.equalsIgnoreCase("latin1")) {
            return MysqlLatin1.INSTANCE; // Windows-1252 with the server's five C1 bytes
        }
        String name = MYSQL_TO_JAVA.getOrDefault(mysqlName.toLowerCase(Locale.ROOT), mysqlName);
        try {
            return Charset.forName(name);
        } catch (RuntimeException e) {
            return StandardCharsets.ISO_8859_1; // bytes survive one-to-one; documented in docs/data-types.md
        }
    }
}
