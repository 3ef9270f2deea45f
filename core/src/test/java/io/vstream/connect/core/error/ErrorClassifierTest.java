package io.vstream.connect.core.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vstream.connect.core.error.Classification.Kind;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ErrorClassifierTest {

    private static SQLException sql(String state, int code, String message) {
        return new SQLException(message, state, code);
    }

    @ParameterizedTest(name = "{0} {1} -> retriable")
    @CsvSource({
            "40001, 1213, 'Deadlock found when trying to get lock; try restarting transaction', deadlock",
            "HY000, 1205, 'Lock wait timeout exceeded; try restarting transaction', lock wait timeout",
            "08004, 1040, 'Too many connections', too many connections",
            "08S01, 1053, 'Server shutdown in progress', shutting down",
            "08S01, 1158, 'Got an error reading communication packets', reading",
            "08S01, 1159, 'Got timeout reading communication packets', net_read_timeout",
            "08S01, 1160, 'Got an error writing communication packets', writing",
            "08S01, 1161, 'Got timeout writing communication packets', net_write_timeout",
            "70100, 1927, 'Connection was killed', killed",
            "HY000, 2002, 'Can''t connect to local server through socket', socket",
            "HY000, 2003, 'Can''t connect to MySQL server on ''db1''', server host",
            "HY000, 2006, 'MySQL server has gone away', gone away",
            "HY000, 2013, 'Lost connection to server during query', lost the connection",
            "HY000, 1290, 'The MariaDB server is running with the --read-only option so it cannot execute this statement', read-only",
            "HY000, 1290, 'The MySQL server is running with the --super-read-only option so it cannot execute this statement', read-only",
            "25006, 1836, 'Running in read-only mode', read-only mode",
    })
    void transientServerAndClientErrorsAreRetriable(String state, int code, String message, String reasonPart) {
        Classification c = ErrorClassifier.classify(sql(state, code, message));
        assertThat(c.kind()).isEqualTo(Kind.RETRIABLE);
        assertThat(c.isRetriable()).isTrue();
        assertThat(c.reason()).contains(reasonPart).contains("error " + code);
    }

    @ParameterizedTest(name = "{1} -> fatal")
    @CsvSource({
            "28000, 1045, 'Access denied for user ''cdc''@''10.0.0.1'' (using password: YES)', check the user",
            "42000, 1044, 'Access denied for user ''cdc''@''%'' to database ''shop''', grant",
            "42000, 1142, 'INSERT command denied to user ''cdc''@''%'' for table ''orders''', grant",
            "42000, 1143, 'SELECT command denied to user ''cdc''@''%'' for column ''ssn'' in table ''users''', grant",
            "42000, 1227, 'Access denied; you need (at least one of) the REPLICATION SLAVE privilege(s)', grant",
            "42S02, 1146, 'Table ''shop.orders'' doesn''t exist', no such table",
            "42S22, 1054, 'Unknown column ''email'' in ''field list''', unknown column",
            "HY000, 1236, 'Could not find first log file name in binary log index file', re-copy",
            "HY000, 1290, 'The MySQL server is running with the --secure-file-priv option so it cannot execute this statement', server option",
    })
    void operatorErrorsAreFatalWithAdviceAndTheServerMessage(String state, int code, String message,
                                                             String advice) {
        Classification c = ErrorClassifier.classify(sql(state, code, message));
        assertThat(c.kind()).isEqualTo(Kind.FATAL);
        assertThat(c.reason()).contains(advice).contains(String.valueOf(code)).contains(message);
    }

    @Test
    void binlogGoneSaysTheStreamMustReCopy() {
        Classification c = ErrorClassifier.classify(sql("HY000", 1236,
                "Got fatal error 1236 from master when reading data from binary log: 'Could not find GTID state'"));
        assertThat(c.kind()).isEqualTo(Kind.FATAL);
        assertThat(c.reason()).startsWith("the binlog position the stream needs is gone").contains("re-copy");
    }

    @ParameterizedTest(name = "{1} -> poison record")
    @CsvSource({
            "23000, 1062, 'Duplicate entry ''alice@example.com'' for key ''users.email''', duplicate key, key 'users.email'",
            "22007, 1366, 'Incorrect integer value: ''secret'' for column ''age'' at row 1', poison record, column 'age'",
            "22007, 1366, 'Incorrect integer value: ''secret'' for column `shop`.`t`.`age` at row 1', poison record, column `shop`.`t`.`age`",
            "22003, 1264, 'Out of range value for column ''qty'' at row 1', out of range, column 'qty'",
            "22001, 1406, 'Data too long for column ''name'' at row 1', too long, column 'name'",
    })
    void dataErrorsAreFatalAndNeverQuoteRowValues(String state, int code, String message, String advice,
                                                  String names) {
        Classification c = ErrorClassifier.classify(sql(state, code, message));
        assertThat(c.kind()).isEqualTo(Kind.FATAL);
        assertThat(c.reason()).contains(advice).contains(names).contains("error " + code)
                .doesNotContain("alice@example.com").doesNotContain("secret");
    }

    @Test
    void walksTheCauseChainToTheServerError() {
        SQLException deadlock = sql("40001", 1213, "Deadlock found");
        Exception wrapped = new RuntimeException("apply failed", new IllegalStateException("batch", deadlock));
        assertThat(ErrorClassifier.classify(wrapped).kind()).isEqualTo(Kind.RETRIABLE);

        SQLException missing = sql("42S02", 1146, "Table 'shop.t' doesn't exist");
        assertThat(ErrorClassifier.classify(new UncheckedIOException(new IOException("x", missing))).reason())
                .contains("no such table");
    }

    @Test
    void followsSqlNextExceptions() {
        BatchUpdateException batch = new BatchUpdateException("batch failed", "HY000", 0, new int[0]);
        batch.setNextException(sql("23000", 1062, "Duplicate entry '1' for key 'PRIMARY'"));
        assertThat(ErrorClassifier.classify(batch).reason()).contains("duplicate key").contains("key 'PRIMARY'");
    }

    @Test
    void vendorCodeAnywhereInTheChainWinsOverSqlStateAndType() {
        // a driver may report a refused login as a connection exception (SQLState 08xxx): still fatal
        SQLException denied = new SQLNonTransientConnectionException("Access denied for user 'cdc'", "08000", 1045);
        assertThat(ErrorClassifier.classify(denied).kind()).isEqualTo(Kind.FATAL);
        // a transient exception type around a fatal server error stays fatal
        SQLTransientConnectionException outer = new SQLTransientConnectionException("retry?", "08000", 0,
                sql("42S02", 1146, "Table 'shop.t' doesn't exist"));
        assertThat(ErrorClassifier.classify(outer).kind()).isEqualTo(Kind.FATAL);
    }

    @ParameterizedTest
    @CsvSource({"08000", "08001", "08003", "08004", "08006", "08S01", "40001"})
    void connectionAndSerializationSqlStatesAreRetriable(String state) {
        Classification c = ErrorClassifier.classify(sql(state, 0, "driver error"));
        assertThat(c.kind()).isEqualTo(Kind.RETRIABLE);
        assertThat(c.reason()).contains("SQLState " + state);
    }

    @Test
    void transientExceptionTypesAreRetriable() {
        assertThat(ErrorClassifier.classify(new SQLTransactionRollbackException("rolled back")).isRetriable()).isTrue();
        assertThat(ErrorClassifier.classify(new SQLTimeoutException("query timeout")).isRetriable()).isTrue();
        assertThat(ErrorClassifier.classify(new SQLRecoverableException("reconnect")).isRetriable()).isTrue();
        assertThat(ErrorClassifier.classify(new RetriableException("later")).isRetriable()).isTrue();
    }

    @Test
    void networkExceptionsAreRetriableAndSayWhatHappened() {
        assertThat(ErrorClassifier.classify(new ConnectException("Connection refused")).reason())
                .contains("cannot connect").contains("Connection refused");
        assertThat(ErrorClassifier.classify(new SocketException("Connection reset")).reason())
                .contains("network error").contains("Connection reset");
        assertThat(ErrorClassifier.classify(new SocketTimeoutException("Read timed out")).isRetriable()).isTrue();
        assertThat(ErrorClassifier.classify(new EOFException()).reason()).contains("closed the connection");
        SQLException driver = new SQLException("Communications link failure", null, 0,
                new EOFException("Can not read response from server"));
        assertThat(ErrorClassifier.classify(driver).isRetriable()).isTrue();
    }

    @Test
    void everythingElseIsFatal() {
        Classification syntax = ErrorClassifier.classify(sql("42000", 1064, "You have an error in your SQL syntax"));
        assertThat(syntax.kind()).isEqualTo(Kind.FATAL);
        assertThat(syntax.reason()).contains("unrecognised").contains("1064").contains("42000");
        assertThat(ErrorClassifier.classify(new IllegalStateException("bug")).kind()).isEqualTo(Kind.FATAL);
        assertThat(ErrorClassifier.classify(new SQLIntegrityConstraintViolationException("fk", "23000", 1452))
                .kind()).isEqualTo(Kind.FATAL);
    }

    @Test
    void survivesCyclicCauseChains() {
        Exception a = new Exception("a");
        Exception b = new Exception("b", a);
        a.initCause(b);
        assertThat(ErrorClassifier.classify(a).kind()).isEqualTo(Kind.FATAL);

        SQLException first = sql("HY000", 0, "first");
        SQLException second = sql("HY000", 0, "second");
        first.setNextException(second);
        second.setNextException(first);
        assertThat(ErrorClassifier.classify(first).kind()).isEqualTo(Kind.FATAL);
    }

    @Test
    void rejectsNull() {
        assertThatThrownBy(() -> ErrorClassifier.classify(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Classification(null, "x")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void accessDeniedIsFoundAnywhereInTheChain() {
        assertThat(ErrorClassifier.isAccessDenied(sql("28000", 1045, "Access denied for user 'u'@'h'"))).isTrue();
        assertThat(ErrorClassifier.isAccessDenied(new RuntimeException("wrapped",
                sql("42000", 1142, "SELECT command denied to user")))).isTrue();
        assertThat(ErrorClassifier.isAccessDenied(sql("08S01", 2003, "Can't connect"))).isFalse();
        assertThat(ErrorClassifier.isAccessDenied(sql("42000", 1067, "Invalid default value for 'dt'"))).isFalse();
    }

    @Test
    void aDeadlockIsFoundAnywhereInTheChainAndNothingElseIsOne() {
        assertThat(ErrorClassifier.isDeadlock(sql("40001", 1213, "Deadlock found when trying to get lock"))).isTrue();
        assertThat(ErrorClassifier.isDeadlock(new RuntimeException("wrapped",
                sql("40001", 1213, "Deadlock found when trying to get lock")))).isTrue();
        assertThat(ErrorClassifier.isDeadlock(sql("HY000", 1205, "Lock wait timeout exceeded"))).isFalse();
        assertThat(ErrorClassifier.isDeadlock(sql("08S01", 2013, "Lost connection"))).isFalse();
    }

    @Test
    void aFailedTlsHandshakeIsFatalWhateverStateTheDriverGivesIt() {
        SQLException wrongCa = new java.sql.SQLNonTransientConnectionException("Could not connect", "08000", -1,
                new javax.net.ssl.SSLHandshakeException("PKIX path building failed"));
        assertThat(ErrorClassifier.isRetriable(wrongCa)).isFalse();
        assertThat(ErrorClassifier.classify(wrongCa).reason()).contains("TLS handshake failed");
        SQLException noTls = new java.sql.SQLNonTransientConnectionException(
                "(conn=5) Trying to connect with ssl, but ssl not enabled in the server", "08000", -1);
        assertThat(ErrorClassifier.isRetriable(noTls)).isFalse();
    }
}
