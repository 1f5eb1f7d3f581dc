package io.clrheap.dac.host;

import io.clrheap.dac.walk.DacWalkListener;
import io.clrheap.dac.dbi.HeapObject;
import io.clrheap.dac.sos.GcHeapData;
import io.clrheap.dac.sos.GcHeapDetails;
import io.clrheap.dac.sos.GenerationData;
import io.clrheap.dac.sos.HeapSegmentData;
import io.clrheap.dac.sos.FieldDescData;
import io.clrheap.dac.sos.MethodTableData;
import io.clrheap.dac.sos.MethodTableFieldData;
import io.clrheap.dac.sos.ThreadData;
import io.clrheap.dac.sos.UsefulGlobals;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads the child process's records back into listener events (see {@link WireWriter}). */
public final class WireStream {

    /** How a stream ended. */
    /**
     * @param complete   the END record came
     * @param error      what the child said went wrong, or null
     * @param walkDone   the heap walk itself was complete (a child that died after it died asking for type names)
     */
    public record Outcome(boolean complete, String error, boolean walkDone) {
    }

    private static final int MAX_LIST = 1 << 12;

    private final DataInputStream in;

    private WireStream(DataInputStream in) {
        this.in = in;
    }

    /** Reads until END or the end of the stream; {@code complete} is false when END never came (the child died). */
    public static Outcome read(DataInputStream in, DacWalkListener listener) throws IOException {
        return new WireStream(in).readAll(listener);
    }

    private Outcome readAll(DacWalkListener listener) throws IOException {
        String error = null;
        boolean walkDone = false;
        while (true) {
            int tag = in.read();
            if (tag < 0) {
                return new Outcome(false, error, walkDone);
            }
            try {
                switch (tag) {
                    case Wire.GC_HEAP_DATA -> listener.gcHeapData(new GcHeapData(in.readBoolean(), in.readBoolean(), in.readInt(), in.readInt()));
                    case Wire.USEFUL_GLOBALS -> listener.usefulGlobals(new UsefulGlobals(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong()));
                    case Wire.THREAD -> listener.thread(new ThreadData(in.readLong(), in.readInt(), in.readInt(), in.readInt(), in.readLong(), in.readLong(), in.readLong()));
                    case Wire.GLOBAL_CONTEXT -> listener.globalAllocationContext(in.readLong(), in.readLong());
                    case Wire.HEAP -> {
                        int index = in.readInt();
                        long heap = in.readLong();
                        long allocated = in.readLong();
                        long markArray = in.readLong();
                        long state = in.readLong();
                        long sweep = in.readLong();
                        List<GenerationData> four = generations();
                        GcHeapDetails d = new GcHeapDetails(heap, allocated, markArray, state, sweep, four, in.readLong(), in.readLong(),
                                in.readLong(), in.readLong());
                        listener.heap(index, d, generations());
                    }
                    case Wire.SEGMENT -> {
                        int heap = in.readInt();
                        int generation = in.readInt();
                        listener.segment(heap, generation, new HeapSegmentData(in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                                in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong()));
                    }
                    case Wire.METHOD_TABLE -> {
                        long mt = in.readLong();
                        listener.methodTable(mt, methodTableData());
                    }
                    case Wire.METHOD_TABLE_FIELDS -> {
                        long mt = in.readLong();
                        MethodTableData d = methodTableData();
                        MethodTableFieldData f = new MethodTableFieldData(in.readInt(), in.readInt(), in.readInt(), in.readLong(), in.readInt(),
                                in.readInt());
                        listener.methodTableFields(mt, d, f, in.readInt());
                    }
                    case Wire.FIELD_DESC -> {
                        long mt = in.readLong();
                        long address = in.readLong();
                        listener.fieldDesc(mt, address, new FieldDescData(in.readInt(), in.readInt(), in.readLong(), in.readLong(), in.readInt(),
                                in.readInt(), in.readLong(), in.readLong(), in.readBoolean(), in.readBoolean(), in.readBoolean(), in.readLong()));
                    }
                    case Wire.OBJECT -> listener.object(in.readLong(), in.readLong(), in.readLong(), in.readUnsignedShort(), in.readUnsignedByte());
                    case Wire.HEAP_OBJECT -> listener.heapObject(new HeapObject(in.readLong(), in.readLong(), in.readLong()));
                    case Wire.CALL_FAILED -> listener.callFailed(in.readUTF(), in.readLong(), in.readInt());
                    case Wire.FAILED_READS -> {
                        long count = in.readLong();
                        int n = in.readInt();
                        List<String> first = new ArrayList<>();
                        for (int i = 0; i < Math.min(n, MAX_LIST); i++) {
                            first.add(in.readUTF());
                        }
                        listener.failedReads(count, first);
                    }
                    case Wire.NOTE -> listener.note(in.readUTF());
                    case Wire.TYPE_NAME -> listener.typeName(in.readLong(), in.readUTF());
                    case Wire.WALK_DONE -> {
                        walkDone = true;
                        listener.walkDone();
                    }
                    case Wire.ERROR -> error = in.readUTF();
                    case Wire.END -> {
                        return new Outcome(true, error, walkDone);
                    }
                    default -> {
                        // not a record: something else wrote to the child's stdout as it died; the records end here
                        return new Outcome(false, String.format("unknown record 0x%02x from the DAC process", tag), walkDone);
                    }
                }
            } catch (EOFException e) {
                return new Outcome(false, error, walkDone); // died mid-record
            }
        }
    }

    private MethodTableData methodTableData() throws IOException {
        return new MethodTableData(in.readBoolean(), in.readLong(), in.readLong(), in.readLong(), in.readInt(), in.readInt(), in.readInt(),
                in.readInt(), in.readBoolean());
    }

    private List<GenerationData> generations() throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 64) {
            throw new IOException("a generation table of " + n + " entries from the DAC process");
        }
        List<GenerationData> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(new GenerationData(in.readLong(), in.readLong(), in.readLong(), in.readLong()));
        }
        return list;
    }
}
