package io.clrheap.layout.view;

/** {@code CFinalize}: a heap's finalization queue, an array split into segments by fill pointers. */
@Struct("CFinalize")
public interface FinalizeQueue extends StructView {

    /** Segment {@code i} ends at fill pointer {@code i}; it starts at the previous one (or {@code m_Array}). */
    @Field("m_FillPointers") long fillPointer(int index);

    @Field("m_Array") long array();

    @Field("m_EndArray") long endArray();

    interface Writable extends FinalizeQueue, WritableStructView {
        @Field("m_FillPointers") void fillPointer(int index, long value);

        @Field("m_Array") void array(long value);

        @Field("m_EndArray") void endArray(long value);
    }
}
