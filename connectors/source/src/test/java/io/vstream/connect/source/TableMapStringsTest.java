package io.vstream.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A TABLE_MAP event built byte by byte, read through {@link TableMapStrings}. */
class TableMapStringsTest {

    @Test
    void namesAreUtf8AndMembersKeepTheirBytesForTheirColumnsCharset() throws Exception {
        byte[] body = tableMap();
        TableMapEventData data = new TableMapStrings(new TableMapEventDataDeserializer())
                .deserialize(new ByteArrayInputStream(body));
        assertThat(data.getDatabase()).isEqualTo("shop");
        assertThat(data.getTable()).isEqualTo("tä");
        assertThat(data.getEventMetadata().getColumnNames()).containsExactly("id", "é", "l");
        String[] utf8 = data.getEventMetadata().getEnumStrValues().get(0);
        String[] latin1 = data.getEventMetadata().getEnumStrValues().get(1);
        assertThat(TableMapStrings.members(utf8, StandardCharsets.UTF_8)).containsExactly("a", "😀");
        assertThat(TableMapStrings.members(latin1, StandardCharsets.ISO_8859_1)).containsExactly("ß");
    }

    @Test
    void anEventShorterThanItsLayoutIsAnError() throws Exception {
        byte[] body = tableMap();
        byte[] cut = java.util.Arrays.copyOf(body, body.length - 3);
        TableMapEventData data = new TableMapEventData();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TableMapStrings.reread(cut, data))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("shorter than its layout");
    }

    /** `shop`.`tä` (id INT, `é` ENUM('a','😀') utf8mb4, l ENUM('ß') latin1), with names and members. */
    private static byte[] tableMap() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] {21, 0, 0, 0, 0, 0, 1, 0}); // table id, flags
        name(b, "shop".getBytes(StandardCharsets.UTF_8));
        name(b, "tä".getBytes(StandardCharsets.UTF_8));
        b.write(3); // columns
        b.writeBytes(new byte[] {3, (byte) 0xFE, (byte) 0xFE}); // LONG, STRING (ENUM), STRING (ENUM)
        b.write(4); // type metadata: ENUM (0xF7), 1 byte, twice
        b.writeBytes(new byte[] {(byte) 0xF7, 1, (byte) 0xF7, 1});
        b.write(0x06); // NULL bitmap
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        for (String n : new String[] {"id", "é", "l"}) {
            byte[] bytes = n.getBytes(StandardCharsets.UTF_8);
            names.write(bytes.length);
            names.writeBytes(bytes);
        }
        field(b, TableMapStrings.COLUMN_NAME, names.toByteArray());
        ByteArrayOutputStream members = new ByteArrayOutputStream();
        members.write(2);
        members.write(1);
        members.write('a');
        byte[] emoji = "😀".getBytes(StandardCharsets.UTF_8);
        members.write(emoji.length);
        members.writeBytes(emoji);
        members.write(1);
        members.write(1);
        members.write(0xDF); // 'ß' in latin1
        field(b, TableMapStrings.ENUM_STR_VALUE, members.toByteArray());
        field(b, 10, new byte[] {45, 1, 8}); // ENUM/SET charsets: utf8mb4_general_ci, the second latin1_swedish_ci
        return b.toByteArray();
    }

    private static void name(ByteArrayOutputStream b, byte[] name) {
        b.write(name.length);
        b.writeBytes(name);
        b.write(0);
    }

    private static void field(ByteArrayOutputStream b, int type, byte[] value) {
        b.write(type);
        b.write(value.length);
        b.writeBytes(value);
    }
}
