package io.vstream.connect.core.position;

/**
 * A GTID position, a single GTID or a VGTID that cannot be parsed. The message quotes the input (never row
 * values), says what is wrong and shows a valid example, so an operator can fix a config value or a stored offset
 * from the log line alone.
 */
public final class MalformedPositionException extends IllegalArgumentException {

    public MalformedPositionException(String message) {
        super(message);
    }

    public MalformedPositionException(String message, Throwable cause) {
        super(message, cause);
    }
}
