package io.vstream.connect.source;

import io.vstream.connect.core.event.EventHeaders;

/**
 * A cell of a row image that the image's Connect value cannot carry exactly, named in a header of its ROW record so
 * that a consumer writing rows back writes what the source holds: a date no calendar has ({@link
 * EventHeaders#INVALID_TEMPORAL}, {@code column=text}; the image holds {@code null}) or an ENUM's invalid-value
 * entry, index 0 ({@link EventHeaders#INVALID_ENUM}, the column; the image holds {@code ""}, which a {@code ''} member
 * also spells).
 */
record InvalidCell(String header, String value) {
    static InvalidCell temporal(String column, InvalidTemporal t) {
        return new InvalidCell(EventHeaders.INVALID_TEMPORAL, column + "=" + t.text());
    }

    static InvalidCell enumIndexZero(String column) {
        return new InvalidCell(EventHeaders.INVALID_ENUM, column);
    }
}
