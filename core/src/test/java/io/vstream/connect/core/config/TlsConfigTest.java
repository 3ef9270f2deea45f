package io.vstream.connect.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.sql.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TlsConfigTest {
    private static ConfigDef def(String prefix) {
        ConfigDef def = new ConfigDef();
        TlsConfig.define(def, prefix, "Target", 0, "the target");
        return def;
    }

    @Test
    void definesTheKeysUnderTheirPrefixWithTlsOffByDefault() {
        ConfigDef def = def("target.");
        assertThat(def.names()).containsExactlyInAnyOrder("target.ssl.mode", "target.ssl.ca", "target.ssl.keystore",
                "target.ssl.keystore.password", "target.ssl.keystore.type");
        assertThat(def.configKeys().get("target.ssl.keystore.password").type).isEqualTo(ConfigDef.Type.PASSWORD);
        TlsSettings tls = TlsConfig.read(new AbstractConfig(def, Map.of()), "target.");
        assertThat(tls.mode()).isEqualTo(TlsSettings.Mode.DISABLE);
        assertThat(tls.enabled()).isFalse();
    }

    @Test
    void readsTheSettings() throws Exception {
        Path ca = Files.createTempFile("ca", ".pem");
        TlsSettings tls = TlsConfig.read(new AbstractConfig(def(""), Map.of("ssl.mode", "VERIFY-FULL", "ssl.ca",
                ca.toString(), "ssl.keystore.password", "pw")), "");
        assertThat(tls.mode()).isEqualTo(TlsSettings.Mode.VERIFY_FULL);
        assertThat(tls.caFile()).isEqualTo(ca.toString());
        assertThat(tls.keyStorePassword()).isEqualTo("pw");
        Files.delete(ca);
    }

    @Test
    void refusesAModeOrAFileItCannotUse() {
        assertThatThrownBy(() -> new AbstractConfig(def(""), Map.of("ssl.mode", "required")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ssl.mode");
        assertThatThrownBy(() -> new AbstractConfig(def(""), Map.of("ssl.ca", "/no/such/ca.pem")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ssl.ca")
                .hasMessageContaining("no readable file");
    }
}
