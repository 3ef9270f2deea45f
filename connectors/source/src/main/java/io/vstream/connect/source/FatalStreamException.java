package io.vstream.connect.source;

/**
 * A failure of a shard's stream that retrying cannot fix (a purged binlog, a refused grant, a position of another
 * flavor, a failed check): the stream stops instead of reconnecting, and its message is the operator's. Touches no
 * server.
 */
final class FatalStreamException extends Exception {
    FatalStreamException(String message) {
        super(message);
    }

    FatalStreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
