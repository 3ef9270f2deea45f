package io.vstream.connect.core.sql;

import java.sql.SQLNonTransientConnectionException;

/**
 * A connection that failed because of TLS (a certificate the configured trust does not accept, a server without TLS,
 * a plain connection to a server that requires TLS), with a message that names the keys to fix
 * ({@link TlsSettings#explain}). Retrying meets the same certificate: it is never retried.
 */
public final class TlsHandshakeException extends SQLNonTransientConnectionException {
    public TlsHandshakeException(String message, java.sql.SQLException cause) {
        super(message, cause.getSQLState(), cause.getErrorCode(), cause);
    }
}
