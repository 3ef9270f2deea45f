package io.vstream.connect.source;

import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import io.vstream.connect.core.event.RowEnvelope;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * One binlog rows event (WRITE, UPDATE or DELETE, in any of their versions) read the same way whatever its kind: the
 * table id it applies to, its rows, and each row's before and after images with the operation. Pure: reads the
 * event's data only.
 */
record RowsEvent(EventType type, long tableId, List<?> rows) {

    /** One row of the event: {@code before} is null for a write, {@code after} null for a delete. */
    record Images(Serializable[] before, Serializable[] after, RowEnvelope.Op op) {
    }

    /** The rows event {@code event} is ({@link EventType#isRowMutation} of its type must hold). */
    static RowsEvent of(Event event) {
        EventType type = event.getHeader().getEventType();
        if (EventType.isWrite(type)) {
            WriteRowsEventData d = event.getData();
            return new RowsEvent(type, d.getTableId(), d.getRows());
        }
        if (EventType.isUpdate(type)) {
            UpdateRowsEventData d = event.getData();
            return new RowsEvent(type, d.getTableId(), d.getRows());
        }
        DeleteRowsEventData d = event.getData();
        return new RowsEvent(type, d.getTableId(), d.getRows());
    }

    boolean isWrite() {
        return EventType.isWrite(type);
    }

    /** The images of one of {@link #rows()}. */
    Images images(Object row) {
        if (EventType.isWrite(type)) {
            return new Images(null, (Serializable[]) row, RowEnvelope.Op.CREATE);
        }
        if (EventType.isUpdate(type)) {
            @SuppressWarnings("unchecked")
            Map.Entry<Serializable[], Serializable[]> e = (Map.Entry<Serializable[], Serializable[]>) row;
            return new Images(e.getKey(), e.getValue(), RowEnvelope.Op.UPDATE);
        }
        return new Images((Serializable[]) row, null, RowEnvelope.Op.DELETE);
    }
}
