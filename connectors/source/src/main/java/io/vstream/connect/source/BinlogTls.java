package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.DefaultSSLSocketFactory;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import io.vstream.connect.core.sql.TlsSettings;
import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;

/**
 * Gives the binlog client the TLS of the connector's JDBC connections ({@link TlsSettings}): {@code trust} is the
 * client's REQUIRED (encrypted, unchecked), {@code verify-ca} its VERIFY_CA and {@code verify-full} its
 * VERIFY_IDENTITY (the certificate must also name the host), each with the trust of {@code ssl.ca} and the client's
 * own key store, and TLS 1.2 or 1.3 as the server offers.
 */
final class BinlogTls {
    private BinlogTls() {
    }

    static void configure(BinaryLogClient client, TlsSettings tls) {
        client.setSSLMode(switch (tls.mode()) {
            case DISABLE -> SSLMode.DISABLED;
            case TRUST -> SSLMode.REQUIRED;
            case VERIFY_CA -> SSLMode.VERIFY_CA;
            case VERIFY_FULL -> SSLMode.VERIFY_IDENTITY;
        });
        if (tls.enabled()) {
            client.setSslSocketFactory(new DefaultSSLSocketFactory("TLS") {
                @Override
                protected void initSSLContext(SSLContext sc) throws GeneralSecurityException {
                    try {
                        sc.init(tls.keyManagers(), tls.trustManagers(), null);
                    } catch (IOException e) {
                        throw new GeneralSecurityException("Cannot read the TLS files of " + tls + ": " + e, e);
                    }
                }
            });
        }
    }
}
