package io.vstream.connect.transforms;

/**
 * What a row transform does with the control events of a shard's log (BEGIN, COMMIT, FIELD, DDL, VGTID, HEARTBEAT,
 * ...), the records whose {@code vstream.event} header is not {@code ROW}: the setting {@code control.events}.
 */
public enum ControlEventHandling {
    /** Drop them: the transform's output holds rows only. */
    DROP("drop them (the output holds rows only)"),
    /** Pass them on unchanged (same topic, value and headers), e.g. to keep transaction boundaries downstream. */
    PASS("pass them on unchanged");

    private final String doc;

    ControlEventHandling(String doc) {
        this.doc = doc;
    }

    /** One line for the setting's documentation. */
    public String doc() {
        return doc;
    }

    /** The documentation of a {@code control.events} setting, listing each choice. */
    static String settingDoc(String what) {
        StringBuilder sb = new StringBuilder("What to do with control events (records whose vstream.event header is "
                + "not ROW: BEGIN, COMMIT, FIELD, DDL, VGTID, HEARTBEAT, ...) " + what + ":");
        for (ControlEventHandling h : values()) {
            sb.append(' ').append(io.vstream.connect.transforms.util.EnumChoice.name(h)).append(" = ").append(h.doc)
                    .append(h.ordinal() < values().length - 1 ? ";" : ".");
        }
        return sb.toString();
    }
}
