package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventMetadata;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a TABLE_MAP event with the binlog client's own deserializer, then takes its strings again from the event's
 * bytes: the client decodes them with the JVM's default charset, which on a worker started under the C locale is
 * ASCII, so a database, table or column name outside ASCII, and every ENUM or SET member such as {@code '😀'}, came
 * out as replacement characters (an ENUM holding the emoji then reached consumers as {@code ""}). Names are UTF-8 in
 * the binlog; ENUM and SET members are in their column's character set, which only the server's collation table
 * tells, so they are handed on as ISO-8859-1 strings (one char per byte, nothing lost) for {@link TableDecoder} to
 * decode with the column's charset ({@link #members}). Layout of the event body (MariaDB and MySQL alike): table id
 * (6 bytes), flags (2), database (length byte, bytes, NUL), table (the same), column count (packed), column types,
 * type metadata (packed length, bytes), NULL bitmap, then optional metadata fields (type byte, packed length, value).
 * No I/O beyond the event's bytes.
 */
final class TableMapStrings implements EventDataDeserializer<TableMapEventData> {
    static final int COLUMN_NAME = 4;
    static final int SET_STR_VALUE = 5;
    static final int ENUM_STR_VALUE = 6;

    private final EventDataDeserializer<TableMapEventData> client;

    TableMapStrings(EventDataDeserializer<TableMapEventData> client) {
        this.client = client;
    }

    @Override
    public TableMapEventData deserialize(ByteArrayInputStream in) throws IOException {
        byte[] body = in.read(in.available());
        TableMapEventData data = client.deserialize(new ByteArrayInputStream(body));
        reread(body, data);
        return data;
    }

    /** Sets the names and the ENUM/SET members of {@code data} from the event's bytes. */
    static void reread(byte[] body, TableMapEventData data) throws IOException {
        Reader r = new Reader(body);
        r.skip(8);
        data.setDatabase(r.utf8(r.u8()));
        r.skip(1);
        data.setTable(r.utf8(r.u8()));
        r.skip(1);
        int columns = (int) r.packed();
        r.skip(columns);
        r.skip((int) r.packed());
        r.skip((columns + 7) / 8);
        TableMapEventMetadata md = data.getEventMetadata();
        while (r.remaining() > 0) {
            int type = r.u8();
            int length = (int) r.packed();
            Reader field = r.slice(length);
            if (md == null) {
                continue;
            }
            switch (type) {
                case COLUMN_NAME -> {
                    List<String> names = new ArrayList<>();
                    while (field.remaining() > 0) {
                        names.add(field.utf8((int) field.packed()));
                    }
                    md.setColumnNames(names);
                }
                case SET_STR_VALUE -> md.setSetStrValues(memberLists(field));
                case ENUM_STR_VALUE -> md.setEnumStrValues(memberLists(field));
                default -> {
                }
            }
        }
    }

    /** Each ENUM (or SET) column's members, in column order, one char per byte. */
    private static List<String[]> memberLists(Reader field) throws IOException {
        List<String[]> out = new ArrayList<>();
        while (field.remaining() > 0) {
            String[] members = new String[(int) field.packed()];
            for (int i = 0; i < members.length; i++) {
                members[i] = field.bytesAsLatin1((int) field.packed());
            }
            out.add(members);
        }
        return out;
    }

    /** The members as the column's charset spells them, from the one-char-per-byte strings {@link #reread} set. */
    static String[] members(String[] latin1, java.nio.charset.Charset charset) {
        if (latin1 == null) {
            return null;
        }
        String[] out = new String[latin1.length];
        for (int i = 0; i < latin1.length; i++) {
            out[i] = new String(latin1[i].getBytes(StandardCharsets.ISO_8859_1), charset);
        }
        return out;
    }

    /** A cursor over part of the event's bytes that fails on a read past its end. */
    private static final class Reader {
        private final byte[] b;
        private int pos;
        private final int end;

        Reader(byte[] b) {
            this(b, 0, b.length);
        }

        private Reader(byte[] b, int from, int end) {
            this.b = b;
            this.pos = from;
            this.end = end;
        }

        int remaining() {
            return end - pos;
        }

        private void need(int n) throws IOException {
            if (n < 0 || n > remaining()) {
                throw new IOException("TABLE_MAP event shorter than its layout: " + n + " byte(s) wanted at " + pos
                        + ", " + remaining() + " left");
            }
        }

        void skip(int n) throws IOException {
            need(n);
            pos += n;
        }

        int u8() throws IOException {
            need(1);
            return b[pos++] & 0xFF;
        }

        long fixed(int n) throws IOException {
            need(n);
            long v = 0;
            for (int i = 0; i < n; i++) {
                v |= (long) (b[pos++] & 0xFF) << (8 * i);
            }
            return v;
        }

        /** A length-encoded integer. */
        long packed() throws IOException {
            int first = u8();
            return switch (first) {
                case 0xFC -> fixed(2);
                case 0xFD -> fixed(3);
                case 0xFE -> fixed(8);
                default -> {
                    if (first >= 0xFB) {
                        throw new IOException("TABLE_MAP event: bad packed integer 0x" + Integer.toHexString(first));
                    }
                    yield first;
                }
            };
        }

        String utf8(int n) throws IOException {
            need(n);
            String s = new String(b, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        String bytesAsLatin1(int n) throws IOException {
            need(n);
            String s = new String(b, pos, n, StandardCharsets.ISO_8859_1);
            pos += n;
            return s;
        }

        Reader slice(int n) throws IOException {
            need(n);
            Reader r = new Reader(b, pos, pos + n);
            pos += n;
            return r;
        }
    }
}
