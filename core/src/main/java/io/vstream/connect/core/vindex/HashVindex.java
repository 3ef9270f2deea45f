package io.vstream.connect.core.vindex;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Vitess's {@code hash} vindex: the value as a big-endian uint64, encrypted as one block with 3DES (DESede, ECB, no
 * padding) under an all-zero 24-byte key; the 8 encrypted bytes are the keyspace id. With three equal sub-keys 3DES
 * is single DES, which is what Vitess computes ({@code des.NewCipher} with an 8-byte zero key).
 *
 * <p>Negative values of signed integer types map through their two's complement, as Vitess casts a signed column's
 * int64 to uint64. A {@link Cipher} is not thread-safe, so each thread keeps its own.
 */
final class HashVindex implements Vindex {

    static final String NAME = "hash";

    private static final ThreadLocal<Cipher> CIPHER = ThreadLocal.withInitial(HashVindex::newCipher);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] keyspaceId(Object value) {
        byte[] block = ByteBuffer.allocate(Long.BYTES).putLong(Uint64Values.of(NAME, value, true)).array();
        try {
            return CIPHER.get().doFinal(block);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("DESede failed on one 8-byte block; the JDK's crypto provider is broken",
                    e);
        }
    }

    private static Cipher newCipher() {
        try {
            // SecretKeySpec skips DESedeKeySpec's key checks; SunJCE accepts the all-zero (weak) key this way.
            Cipher cipher = Cipher.getInstance("DESede/ECB/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[24], "DESede"));
            return cipher;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("This JVM cannot run DESede/ECB/NoPadding, which the Vitess hash vindex "
                    + "needs (a FIPS-restricted provider?)", e);
        }
    }

    @Override
    public String toString() {
        return NAME;
    }
}
