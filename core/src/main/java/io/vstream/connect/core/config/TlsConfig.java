package io.vstream.connect.core.config;

import io.vstream.connect.core.sql.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The TLS keys of a connector's connections to one kind of server, {@code <prefix>ssl.mode}, {@code <prefix>ssl.ca},
 * {@code <prefix>ssl.keystore}, {@code <prefix>ssl.keystore.password}, {@code <prefix>ssl.keystore.type}: defined
 * the same way by every connector (the source with no prefix for its shards, the sink with {@code target.}, the
 * coordinator with {@code source.} and {@code target.}), read into {@link TlsSettings}.
 */
public final class TlsConfig {
    public static final String MODE = "ssl.mode";
    public static final String CA = "ssl.ca";
    public static final String KEYSTORE = "ssl.keystore";
    public static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
    public static final String KEYSTORE_TYPE = "ssl.keystore.type";

    private TlsConfig() {
    }

    /**
     * Defines the keys under {@code prefix} in {@code group}, starting at {@code order}; returns the next order.
     *
     * @param servers what the keys connect to, for the docs ("every shard's server", "the target")
     */
    public static int define(ConfigDef def, String prefix, String group, int order, String servers) {
        int o = order;
        def.define(prefix + MODE, Type.STRING, "disable", ConfigDef.CaseInsensitiveValidString.in("disable", "trust",
                        "verify-ca", "verify-full"), Importance.HIGH,
                "TLS to " + servers + ". 'disable' (default): plain connections. 'trust': encrypted, the server's"
                        + " certificate not checked. 'verify-ca': encrypted, the certificate signed by the CA of '"
                        + prefix + CA + "' (or the JVM's trust store). 'verify-full': also the certificate names the"
                        + " host connected to. JDBC connections and the binlog client alike; a server with"
                        + " require_secure_transport=ON refuses 'disable'.", group, ++o, Width.SHORT,
                "TLS mode");
        def.define(prefix + CA, Type.STRING, "", new ReadableFile(), Importance.MEDIUM,
                "PEM file (on every worker) of the CA certificate(s) that signed the server's certificate, for"
                        + " 'verify-ca' and 'verify-full'; empty: the JVM's default trust store.", group, ++o,
                Width.LONG, "TLS CA file");
        def.define(prefix + KEYSTORE, Type.STRING, "", new ReadableFile(), Importance.LOW,
                "Key store file (on every worker) with the client's certificate and key, for servers that require"
                        + " one (REQUIRE X509); empty: none.", group, ++o, Width.LONG, "TLS client key store");
        def.define(prefix + KEYSTORE_PASSWORD, Type.PASSWORD, "", Importance.LOW,
                "The key store's password.", group, ++o, Width.MEDIUM, "TLS client key store password");
        def.define(prefix + KEYSTORE_TYPE, Type.STRING, "PKCS12",
                ConfigDef.CaseInsensitiveValidString.in("PKCS12", "JKS"), Importance.LOW,
                "The key store's format.", group, ++o, Width.SHORT, "TLS client key store type");
        return o;
    }

    /** The settings under {@code prefix}. */
    public static TlsSettings read(AbstractConfig config, String prefix) {
        Password password = config.getPassword(prefix + KEYSTORE_PASSWORD);
        return new TlsSettings(TlsSettings.Mode.of(config.getString(prefix + MODE)), config.getString(prefix + CA),
                config.getString(prefix + KEYSTORE), password == null ? "" : password.value(),
                config.getString(prefix + KEYSTORE_TYPE));
    }

    /** A file name that is empty or names a readable file. */
    static final class ReadableFile implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String file = value == null ? "" : value.toString();
            if (!file.isEmpty() && !Files.isReadable(Path.of(file))) {
                throw new ConfigException(name, value, "no readable file there on this worker: put the file on"
                        + " every worker at that path, or leave " + name + " empty");
            }
        }

        @Override
        public String toString() {
            return "empty, or a readable file";
        }
    }
}
