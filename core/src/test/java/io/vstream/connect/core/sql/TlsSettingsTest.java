package io.vstream.connect.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Properties;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

class TlsSettingsTest {
    @Test
    void setsTheDriversPropertiesForEachMode() {
        Properties plain = new Properties();
        TlsSettings.DISABLED.applyTo(plain);
        assertThat(plain).containsOnly(java.util.Map.entry("sslMode", "disable"));

        Properties verified = new Properties();
        new TlsSettings(TlsSettings.Mode.VERIFY_FULL, "/etc/ca.pem", "/etc/client.p12", "secret", "PKCS12")
                .applyTo(verified);
        assertThat(verified).containsEntry("sslMode", "verify-full").containsEntry("serverSslCert", "/etc/ca.pem")
                .containsEntry("keyStore", "/etc/client.p12").containsEntry("keyStorePassword", "secret")
                .containsEntry("keyStoreType", "PKCS12");
    }

    @Test
    void modesAreTheConfigurationValues() {
        assertThat(TlsSettings.Mode.of("VERIFY-CA")).isEqualTo(TlsSettings.Mode.VERIFY_CA);
        assertThat(TlsSettings.Mode.of(" trust ")).isEqualTo(TlsSettings.Mode.TRUST);
        assertThatThrownBy(() -> TlsSettings.Mode.of("required")).hasMessageContaining("verify-full");
    }

    @Test
    void neverShowsTheKeyStorePassword() {
        TlsSettings tls = new TlsSettings(TlsSettings.Mode.VERIFY_CA, "/ca.pem", "/k.p12", "s3cret!", "PKCS12");
        assertThat(tls.toString()).contains("verify-ca", "/ca.pem", "/k.p12").doesNotContain("s3cret!");
    }

    @Test
    void trustModeChecksNoCertificate() throws Exception {
        TlsSettings tls = new TlsSettings(TlsSettings.Mode.TRUST, "", "", "", null);
        assertThat(tls.trustManagers()).singleElement().isInstanceOf(X509TrustManager.class);
        assertThat(tls.keyManagers()).isNull();
    }

    @Test
    void explainsWhatTlsHasToDoWithAFailedConnection() {
        SQLException handshake = new SQLNonTransientConnectionException("Could not connect", "08000", -1,
                new SSLHandshakeException("PKIX path building failed"));
        SQLException explained = new TlsSettings(TlsSettings.Mode.VERIFY_CA, "/ca.pem", "", "", null)
                .explain(handshake, "shard -80 (h:3306)", "");
        assertThat(explained.getMessage()).contains("Cannot connect to shard -80 (h:3306)", "TLS handshake failed",
                "ssl.mode", "ssl.ca", "signed by that CA");
        assertThat((Object) explained.getCause()).isSameAs(handshake);
        assertThat((Object) explained).isInstanceOf(TlsHandshakeException.class);
        assertThat(io.vstream.connect.core.error.ErrorClassifier.isRetriable(explained)).isFalse();

        SQLException other = new SQLException("Unknown database 'x'", "42000", 1049);
        assertThat((Object) TlsSettings.DISABLED.explain(other, "x", "")).isSameAs(other);
        assertThat(TlsSettings.DISABLED.accessDeniedHint("target.")).contains("target.ssl.mode is disable");
        assertThat(new TlsSettings(TlsSettings.Mode.TRUST, "", "", "", null).accessDeniedHint("")).isEmpty();
    }
}
