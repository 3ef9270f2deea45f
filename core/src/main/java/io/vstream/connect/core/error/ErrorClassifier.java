package io.vstream.connect.core.error;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * Decides whether a failure talking to MySQL/MariaDB is worth retrying: walks the cause chain (and each
 * {@link SQLException}'s next exceptions) and takes the first verdict found by, in order, vendor error code, SQLState,
 * then exception type. Anything unrecognised is fatal: retrying an unknown error forever hides it.
 */
public final class ErrorClassifier {

    private static final int MAX_CHAIN = 64;

    private ErrorClassifier() {
    }

    /** The verdict for {@code failure}, with a reason an operator can act on. */
    public static Classification classify(Throwable failure) {
        if (failure == null) {
            throw new IllegalArgumentException("Cannot classify a null failure");
        }
        List<Throwable> chain = chain(failure);
        Optional<Classification> tls = first(chain, ErrorClassifier::byTls);
        if (tls.isPresent()) {
            return tls.get();
        }
        return first(chain, t -> t instanceof SQLException e && e.getErrorCode() != 0
                ? MysqlErrorCodes.byVendorCode(e) : Optional.empty())
                .or(() -> first(chain, t -> t instanceof SQLException e ? MysqlErrorCodes.bySqlState(e)
                        : Optional.empty()))
                .or(() -> first(chain, ErrorClassifier::byType))
                .orElseGet(() -> Classification.fatal("unrecognised error " + describe(failure)
                        + "; not retried (see the cause for details)"));
    }

    /** True if {@link #classify} finds {@code failure} retriable. */
    public static boolean isRetriable(Throwable failure) {
        return classify(failure).isRetriable();
    }

    /**
     * True if {@code failure} is the server refusing the account (a wrong password, a missing privilege): no retry
     * can help until an operator fixes the account, so a workflow stops at once.
     */
    public static boolean isAccessDenied(Throwable failure) {
        return chain(failure).stream().anyMatch(t -> t instanceof SQLException e
                && MysqlErrorCodes.ACCESS_DENIED.contains(e.getErrorCode()));
    }

    /**
     * True if {@code failure} is a deadlock the server resolved by rolling this transaction back (error 1213): the
     * other transaction has its locks by now, so the work may be tried again at once, with no backoff.
     */
    public static boolean isDeadlock(Throwable failure) {
        return chain(failure).stream().anyMatch(t -> t instanceof SQLException e
                && e.getErrorCode() == ServerErrors.DEADLOCK);
    }

    /**
     * A TLS handshake that failed (a certificate the trust does not accept, a server without TLS): a retry meets the
     * same certificate, so it is fatal, whatever SQLState the driver wraps it in.
     */
    private static Optional<Classification> byTls(Throwable t) {
        String message = t.getMessage() == null ? "" : t.getMessage();
        if (t instanceof io.vstream.connect.core.sql.TlsHandshakeException) {
            return Optional.of(Classification.fatal(t.getMessage()));
        }
        if (t instanceof javax.net.ssl.SSLHandshakeException || t instanceof java.security.cert.CertificateException
                || t instanceof java.security.cert.CertPathValidatorException
                || message.contains("ssl not enabled in the server") || message.contains("PKIX path building failed")) {
            return Optional.of(Classification.fatal("TLS handshake failed, which a retry cannot change (check the"
                    + " TLS mode and CA of the connection, and the server's certificate): " + withMessage(t)));
        }
        return Optional.empty();
    }

    private static Optional<Classification> byType(Throwable t) {
        if (t instanceof RetriableException) {
            return Optional.of(Classification.retriable("marked retriable by Connect: " + describe(t)));
        }
        if (t instanceof SQLTransientException) {
            return Optional.of(Classification.retriable("transient JDBC error: " + describe(t)));
        }
        if (t instanceof SQLRecoverableException) {
            return Optional.of(Classification.retriable("recoverable JDBC error; reconnect and retry: " + describe(t)));
        }
        if (t instanceof ConnectException) {
            return Optional.of(Classification.retriable("cannot connect to the server: " + withMessage(t)));
        }
        if (t instanceof SocketException || t instanceof SocketTimeoutException) {
            return Optional.of(Classification.retriable("network error on the connection: " + withMessage(t)));
        }
        if (t instanceof EOFException) {
            return Optional.of(Classification.retriable("the server closed the connection mid-response: "
                    + withMessage(t)));
        }
        return Optional.empty();
    }

    private static Optional<Classification> first(List<Throwable> chain,
                                                  Function<Throwable, Optional<Classification>> rule) {
        for (Throwable t : chain) {
            Optional<Classification> verdict = rule.apply(t);
            if (verdict.isPresent()) {
                return verdict;
            }
        }
        return Optional.empty();
    }

    /** {@code failure}, its causes and SQL next-exceptions, outermost first, each once, at most 64. */
    private static List<Throwable> chain(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> chain = new ArrayList<>();
        List<Throwable> pending = new ArrayList<>(List.of(failure));
        while (!pending.isEmpty() && chain.size() < MAX_CHAIN) {
            Throwable t = pending.remove(0);
            if (t == null || !seen.add(t)) {
                continue;
            }
            chain.add(t);
            pending.add(t.getCause());
            if (t instanceof SQLException e) {
                pending.add(e.getNextException());
            }
        }
        return chain;
    }

    /** For network exceptions, whose messages name hosts and sockets ("Connection refused"), never row data. */
    private static String withMessage(Throwable t) {
        return t.getMessage() == null ? describe(t) : describe(t) + ": " + t.getMessage();
    }

    private static String describe(Throwable t) {
        StringBuilder s = new StringBuilder(t.getClass().getName());
        if (t instanceof SQLException e) {
            s.append(" [SQLState ").append(e.getSQLState()).append(", error ").append(e.getErrorCode()).append(']');
        }
        return s.toString();
    }
}
