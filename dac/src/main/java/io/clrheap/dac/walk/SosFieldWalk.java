package io.clrheap.dac.walk;

import io.clrheap.dac.library.DacCallException;
import io.clrheap.dac.sos.FieldDescData;
import io.clrheap.dac.sos.MethodTableData;
import io.clrheap.dac.sos.MethodTableFieldData;
import io.clrheap.dac.sos.SosDac;
import java.util.List;

/**
 * Lists MethodTables' fields the way SOS's {@code DisplayFields} (dotnet/diagnostics src/SOS/Strike/util.cpp) does
 * through the DAC: {@code GetMethodTableData} for the parent, {@code GetMethodTableFieldData} for the class and its
 * parent, then FieldDescs from {@code FirstField} by {@code NextField}, counting instance fields up from the parent's
 * {@code wNumInstanceFields} and statics up from 0 until both reach the class's counts. Runs in the child process that
 * holds the DAC; what it reads goes to the listener. A failing call ends that MethodTable's list, not the listing.
 */
public final class SosFieldWalk {

    /** How many DAC calls between two flushes of its cache ({@link SosDac#flush()}). */
    static final int FLUSH_EVERY = 4096;

    private final SosDac sos;
    private final DacWalkListener listener;
    private int sinceFlush;

    public SosFieldWalk(SosDac sos, DacWalkListener listener) {
        this.sos = sos;
        this.listener = listener;
    }

    /** Lists every MethodTable of {@code methodTables}, in that order. */
    public void list(List<Long> methodTables) {
        for (long mt : methodTables) {
            try {
                listOne(mt);
            } catch (DacCallException e) {
                listener.callFailed(e.call(), e.argument(), e.hresult());
            }
        }
    }

    private void listOne(long mt) throws DacCallException {
        MethodTableData data = sos.methodTableData(mt);
        MethodTableFieldData fields = sos.methodTableFieldData(mt);
        int parentInstance = data.parent() == 0 ? 0 : sos.methodTableFieldData(data.parent()).numInstanceFields();
        listener.methodTableFields(mt, data, fields, parentInstance);
        int instance = parentInstance;
        int statics = 0;
        // the counts are WORDs: a list longer than both together is not the runtime's (a damaged dump); stop there
        int bound = fields.numInstanceFields() + fields.numStaticFields();
        long fd = fields.firstField();
        for (int steps = 0; (instance < fields.numInstanceFields() || statics < fields.numStaticFields()) && steps < bound; steps++) {
            if (fd == 0) {
                listener.callFailed(String.format("GetMethodTableFieldData (%d instance and %d static fields counted, no FieldDesc list)",
                        fields.numInstanceFields() - parentInstance, fields.numStaticFields()), mt, 0x80004005);
                return;
            }
            if (++sinceFlush == FLUSH_EVERY) {
                sinceFlush = 0;
                sos.flush();
            }
            FieldDescData d = sos.fieldDescData(fd);
            listener.fieldDesc(mt, fd, d);
            if (d.isStatic()) {
                statics++;
            } else {
                instance++;
            }
            fd = d.nextField();
        }
    }
}
