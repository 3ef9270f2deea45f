package io.vstream.connect.source;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.util.HashMap;
import java.util.Map;

/**
 * MySQL's and MariaDB's {@code latin1}: Windows-1252, except that the five bytes Windows-1252 leaves undefined (0x81,
 * 0x8D, 0x8F, 0x90, 0x9D) are the C1 control characters of the same number, as the server maps them. Java's
 * {@code windows-1252} decodes those bytes as U+FFFD, which a target then refuses ({@code Incorrect string value}) or
 * stores as another character; with this charset every byte a {@code latin1} column holds decodes to the character
 * the server itself converts it to, and back.
 */
final class MysqlLatin1 extends Charset {
    static final MysqlLatin1 INSTANCE = new MysqlLatin1();

    private static final char[] TO_CHAR = new char[256];
    private static final Map<Character, Byte> TO_BYTE = new HashMap<>();

    static {
        Charset cp1252 = Charset.forName("windows-1252");
        for (int b = 0; b < 256; b++) {
            char c = new String(new byte[] {(byte) b}, cp1252).charAt(0);
            TO_CHAR[b] = c == '\uFFFD' ? (char) b : c;
            TO_BYTE.put(TO_CHAR[b], (byte) b);
        }
    }

    private MysqlLatin1() {
        super("x-vstream-mysql-latin1", new String[0]);
    }

    @Override
    public boolean contains(Charset cs) {
        return cs instanceof MysqlLatin1 || "US-ASCII".equals(cs.name());
    }

    @Override
    public CharsetDecoder newDecoder() {
        return new CharsetDecoder(this, 1f, 1f) {
            @Override
            protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
                while (in.hasRemaining()) {
                    if (!out.hasRemaining()) {
                        return CoderResult.OVERFLOW;
                    }
                    out.put(TO_CHAR[in.get() & 0xFF]);
                }
                return CoderResult.UNDERFLOW;
            }
        };
    }

    @Override
    public CharsetEncoder newEncoder() {
        return new CharsetEncoder(this, 1f, 1f) {
            @Override
            protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
                while (in.hasRemaining()) {
                    Byte b = TO_BYTE.get(in.get(in.position()));
                    if (b == null) {
                        return CoderResult.unmappableForLength(1);
                    }
                    if (!out.hasRemaining()) {
                        return CoderResult.OVERFLOW;
                    }
                    in.get();
                    out.put(b);
                }
                return CoderResult.UNDERFLOW;
            }
        };
    }
}
