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
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Writes a walk's events to the parent process (see {@link WireReader}). */
final class WireWriter implements DacWalkListener {

    private final DataOutputStream out;

    WireWriter(DataOutputStream out) {
        this.out = out;
    }

    private interface Write {
        void run() throws IOException;
    }

    private void write(Write w) {
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to the parent process", e);
        }
    }

    @Override
    public void gcHeapData(GcHeapData d) {
        write(() -> {
            out.write(Wire.GC_HEAP_DATA);
            out.writeBoolean(d.serverMode());
            out.writeBoolean(d.structuresValid());
            out.writeInt(d.heapCount());
            out.writeInt(d.maxGeneration());
        });
    }

    @Override
    public void usefulGlobals(UsefulGlobals g) {
        write(() -> {
            out.write(Wire.USEFUL_GLOBALS);
            out.writeLong(g.arrayMethodTable());
            out.writeLong(g.stringMethodTable());
            out.writeLong(g.objectMethodTable());
            out.writeLong(g.exceptionMethodTable());
            out.writeLong(g.freeMethodTable());
        });
    }

    @Override
    public void thread(ThreadData t) {
        write(() -> {
            out.write(Wire.THREAD);
            out.writeLong(t.address());
            out.writeInt(t.corThreadId());
            out.writeInt(t.osThreadId());
            out.writeInt(t.state());
            out.writeLong(t.allocContextPtr());
            out.writeLong(t.allocContextLimit());
            out.writeLong(t.nextThread());
        });
    }

    @Override
    public void globalAllocationContext(long pointer, long limit) {
        write(() -> {
            out.write(Wire.GLOBAL_CONTEXT);
            out.writeLong(pointer);
            out.writeLong(limit);
        });
    }

    @Override
    public void heap(int index, GcHeapDetails d, List<GenerationData> generations) {
        write(() -> {
            out.write(Wire.HEAP);
            out.writeInt(index);
            out.writeLong(d.heapAddress());
            out.writeLong(d.allocAllocated());
            out.writeLong(d.markArray());
            out.writeLong(d.currentCGcState());
            out.writeLong(d.nextSweepObj());
            writeGenerations(d.generations());
            out.writeLong(d.ephemeralHeapSegment());
            out.writeLong(d.lowestAddress());
            out.writeLong(d.highestAddress());
            out.writeLong(d.cardTable());
            writeGenerations(generations);
        });
    }

    private void writeGenerations(List<GenerationData> generations) throws IOException {
        out.writeInt(generations.size());
        for (GenerationData g : generations) {
            out.writeLong(g.startSegment());
            out.writeLong(g.allocationStart());
            out.writeLong(g.allocContextPtr());
            out.writeLong(g.allocContextLimit());
        }
    }

    @Override
    public void segment(int heap, int generation, HeapSegmentData s) {
        write(() -> {
            out.write(Wire.SEGMENT);
            out.writeInt(heap);
            out.writeInt(generation);
            for (long v : new long[] {s.segmentAddress(), s.allocated(), s.committed(), s.reserved(), s.used(), s.mem(), s.next(),
                    s.gcHeap(), s.highAllocMark(), s.flags(), s.backgroundAllocated()}) {
                out.writeLong(v);
            }
        });
    }

    @Override
    public void methodTable(long methodTable, MethodTableData d) {
        write(() -> {
            out.write(Wire.METHOD_TABLE);
            out.writeLong(methodTable);
            writeMethodTableData(d);
        });
    }

    private void writeMethodTableData(MethodTableData d) throws IOException {
        out.writeBoolean(d.free());
        out.writeLong(d.module());
        out.writeLong(d.canonical());
        out.writeLong(d.parent());
        out.writeInt(d.numInterfaces());
        out.writeInt(d.baseSize());
        out.writeInt(d.componentSize());
        out.writeInt(d.token());
        out.writeBoolean(d.containsPointers());
    }

    @Override
    public void methodTableFields(long methodTable, MethodTableData data, MethodTableFieldData f, int parentInstanceFields) {
        write(() -> {
            out.write(Wire.METHOD_TABLE_FIELDS);
            out.writeLong(methodTable);
            writeMethodTableData(data);
            out.writeInt(f.numInstanceFields());
            out.writeInt(f.numStaticFields());
            out.writeInt(f.numThreadStaticFields());
            out.writeLong(f.firstField());
            out.writeInt(f.contextStaticOffset());
            out.writeInt(f.contextStaticsSize());
            out.writeInt(parentInstanceFields);
        });
    }

    @Override
    public void fieldDesc(long methodTable, long address, FieldDescData d) {
        write(() -> {
            out.write(Wire.FIELD_DESC);
            out.writeLong(methodTable);
            out.writeLong(address);
            out.writeInt(d.type());
            out.writeInt(d.sigType());
            out.writeLong(d.methodTableOfType());
            out.writeLong(d.moduleOfType());
            out.writeInt(d.tokenOfType());
            out.writeInt(d.token());
            out.writeLong(d.enclosingClass());
            out.writeLong(d.offset());
            out.writeBoolean(d.isThreadLocal());
            out.writeBoolean(d.isContextLocal());
            out.writeBoolean(d.isStatic());
            out.writeLong(d.nextField());
        });
    }

    @Override
    public void typeName(long methodTable, String name) {
        write(() -> {
            out.write(Wire.TYPE_NAME);
            out.writeLong(methodTable);
            out.writeUTF(name.length() > 16000 ? name.substring(0, 16000) : name);
        });
    }

    @Override
    public void walkDone() {
        write(() -> {
            out.write(Wire.WALK_DONE);
            out.flush(); // the walk reaches the parent even if the DAC dies asking for names
        });
    }

    @Override
    public void object(long address, long methodTable, long size, int heap, int generation) {
        try { // the hot path: written directly, not through write()'s lambda
            out.write(Wire.OBJECT);
            out.writeLong(address);
            out.writeLong(methodTable);
            out.writeLong(size);
            out.writeShort(heap);
            out.writeByte(generation);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to the parent process", e);
        }
    }

    @Override
    public void heapObject(HeapObject o) {
        try { // the hot path, as object()
            out.write(Wire.HEAP_OBJECT);
            out.writeLong(o.address());
            out.writeLong(o.size());
            out.writeLong(o.methodTable());
        } catch (IOException e) {
            throw new UncheckedIOException("writing to the parent process", e);
        }
    }

    @Override
    public void callFailed(String call, long argument, int hresult) {
        write(() -> {
            out.write(Wire.CALL_FAILED);
            out.writeUTF(call);
            out.writeLong(argument);
            out.writeInt(hresult);
        });
    }

    @Override
    public void failedReads(long count, List<String> first) {
        write(() -> {
            out.write(Wire.FAILED_READS);
            out.writeLong(count);
            out.writeInt(first.size());
            for (String f : first) {
                out.writeUTF(f);
            }
        });
    }

    @Override
    public void note(String text) {
        write(() -> {
            out.write(Wire.NOTE);
            out.writeUTF(text);
        });
    }

    void error(String message) {
        write(() -> {
            out.write(Wire.ERROR);
            out.writeUTF(message.length() > 16000 ? message.substring(0, 16000) : message);
        });
    }

    void end() {
        write(() -> {
            out.write(Wire.END);
            out.flush();
        });
    }
}
