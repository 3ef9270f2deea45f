package io.vstream.connect.core.sql;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.Properties;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * How a connector's connections to one kind of server (the shards, a target) are encrypted and verified: one place
 * for the JDBC driver's properties and for the key and trust managers of a client that is not JDBC (the binlog
 * client), so both speak to a server the same way.
 *
 * @param mode          {@link Mode}
 * @param caFile        PEM file of the CA certificate(s) that signed the server's certificate; empty: the JVM's
 *                      default trust store
 * @param keyStoreFile  the client's certificate and key (PKCS12 or JKS), for servers that require one; empty: none
 * @param keyStorePassword its password (never logged)
 * @param keyStoreType  {@code PKCS12} or {@code JKS}
 */
public record TlsSettings(Mode mode, String caFile, String keyStoreFile, String keyStorePassword,
                          String keyStoreType) {

    /** No TLS. */
    public static final TlsSettings DISABLED = new TlsSettings(Mode.DISABLE, "", "", "", "PKCS12");

    /** How much of the server's certificate is checked. */
    public enum Mode {
        /** Plain connections. */
        DISABLE("disable"),
        /** Encrypted, the server's certificate not checked (protects against eavesdropping, not impersonation). */
        TRUST("trust"),
        /** Encrypted, the certificate signed by the CA. */
        VERIFY_CA("verify-ca"),
        /** Encrypted, the certificate signed by the CA and naming the host connected to. */
        VERIFY_FULL("verify-full");

        private final String value;

        Mode(String value) {
            this.value = value;
        }

        /** The configuration value, which is also MariaDB Connector/J's {@code sslMode}. */
        public String value() {
            return value;
        }

        public static Mode of(String value) {
            for (Mode m : values()) {
                if (m.value.equalsIgnoreCase(value == null ? "" : value.trim())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("Unknown TLS mode '" + value + "': use disable, trust, verify-ca or"
                    + " verify-full");
        }
    }

    public TlsSettings {
        caFile = caFile == null ? "" : caFile;
        keyStoreFile = keyStoreFile == null ? "" : keyStoreFile;
        keyStorePassword = keyStorePassword == null ? "" : keyStorePassword;
        keyStoreType = keyStoreType == null || keyStoreType.isBlank() ? "PKCS12" : keyStoreType;
    }

    public boolean enabled() {
        return mode != Mode.DISABLE;
    }

    /** Sets MariaDB Connector/J's TLS properties. */
    public void applyTo(Properties jdbc) {
        jdbc.setProperty("sslMode", mode.value());
        if (!enabled()) {
            return;
        }
        if (!caFile.isEmpty()) {
            jdbc.setProperty("serverSslCert", caFile);
        }
        if (!keyStoreFile.isEmpty()) {
            jdbc.setProperty("keyStore", keyStoreFile);
            jdbc.setProperty("keyStorePassword", keyStorePassword);
            jdbc.setProperty("keyStoreType", keyStoreType);
        }
    }

    /** The trust managers for the mode: none checking in {@code trust}; the CA file's, or the JVM's, otherwise. */
    public TrustManager[] trustManagers() throws GeneralSecurityException, IOException {
        if (mode == Mode.TRUST) {
            return new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                    // trust: encrypted, unverified, as the mode says
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }};
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (caFile.isEmpty()) {
            tmf.init((KeyStore) null);
        } else {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            try (InputStream in = Files.newInputStream(Path.of(caFile))) {
                int i = 0;
                for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    ks.setCertificateEntry("ca-" + i++, c);
                }
                if (i == 0) {
                    throw new GeneralSecurityException("The CA file " + caFile + " holds no certificate");
                }
            }
            tmf.init(ks);
        }
        return tmf.getTrustManagers();
    }

    /** The client's key managers (its certificate and key), or {@code null} when it presents none. */
    public KeyManager[] keyManagers() throws GeneralSecurityException, IOException {
        if (keyStoreFile.isEmpty()) {
            return null;
        }
        KeyStore ks = KeyStore.getInstance(keyStoreType.toUpperCase(Locale.ROOT));
        try (InputStream in = Files.newInputStream(Path.of(keyStoreFile))) {
            ks.load(in, keyStorePassword.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, keyStorePassword.toCharArray());
        return kmf.getKeyManagers();
    }

    /**
     * {@code e} (a failed connection to {@code server}) with a message that names the TLS keys to fix, when TLS is why
     * it failed: the server requires TLS and the mode is {@code disable}, or the handshake or the certificate check
     * failed; {@code e} itself otherwise.
     *
     * @param keyPrefix the connector's prefix of the TLS keys ("", "target.", "source.")
     */
    public java.sql.SQLException explain(java.sql.SQLException e, String server, String keyPrefix) {
        String text = messages(e).toLowerCase(Locale.ROOT);
        String why = null;
        if (text.contains("insecure transport") || text.contains("require_secure_transport")) {
            why = "the server requires TLS (require_secure_transport=ON) and " + keyPrefix + "ssl.mode is "
                    + mode.value() + ": set " + keyPrefix + "ssl.mode to verify-full (or verify-ca, trust)";
        } else if (enabled() && (text.contains("certificat") || text.contains("ssl") || text.contains("tls")
                || text.contains("handshake") || text.contains("pkix") || text.contains("certification path"))) {
            why = "the TLS handshake failed with " + this + " (" + keyPrefix + "ssl.mode, " + keyPrefix + "ssl.ca): "
                    + (mode == Mode.VERIFY_FULL ? "the server's certificate must be signed by that CA and name the"
                    + " host as connected to; " : mode == Mode.VERIFY_CA ? "the server's certificate must be signed"
                    + " by that CA; " : "") + "the server must have TLS enabled";
        }
        if (why == null) {
            return e;
        }
        return new TlsHandshakeException("Cannot connect to " + server + ": " + why + " (" + e.getMessage() + ")", e);
    }

    /**
     * What to add to an access-denied message: MariaDB refuses a plain connection to a server that requires TLS as
     * if the password were wrong.
     */
    public String accessDeniedHint(String keyPrefix) {
        return enabled() ? "" : ", or the server requires TLS (require_secure_transport=ON) and " + keyPrefix
                + "ssl.mode is disable";
    }

    private static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null && out.length() < 4000; t = t.getCause()) {
            out.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" | ");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "TLS " + mode.value() + (caFile.isEmpty() ? "" : ", CA " + caFile)
                + (keyStoreFile.isEmpty() ? "" : ", client key store " + keyStoreFile);
    }
}
