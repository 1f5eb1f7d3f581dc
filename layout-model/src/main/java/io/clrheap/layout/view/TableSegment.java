package io.clrheap.layout.view;

/**
 * {@code TableSegment}: a 64 KiB, 64-KiB-aligned handle segment — a header ({@code _TableSegmentHeader},
 * packed) then the handle slots. A handle is the address of its slot.
 */
@Struct("TableSegment")
public interface TableSegment extends StructView {

    /** Next block in a type's circular block chain. */
    @Field("rgAllocation") int allocation(int block);

    /** Free-slot bits: mask {@code i} covers slots 32i..32i+31 (64 per block: two masks); a set bit is a free slot. */
    @Field("rgFreeMask") int freeMask(int index);

    /** The handle type of a block. */
    @Field("rgBlockType") int blockType(int block);

    /** The block holding a block's user data (secondaries of dependent handles), or {@code handle.block_invalid}. */
    @Field("rgUserData") int userData(int block);

    /** The last block of a handle type's chain, or {@code handle.block_invalid}. */
    @Field("rgTail") int tail(int handleType);

    @Field("pNextSegment") long nextSegment();

    @Field("pHandleTable") long handleTable();

    @Field("bEmptyLine") int emptyLine();

    /** The content of handle slot {@code index} = block × 64 + i: the target object, or 0 when free. */
    @Field("rgValue") long slot(int index);

    interface Writable extends TableSegment, WritableStructView {
        @Field("rgAllocation") void allocation(int block, int value);

        @Field("rgBlockType") void blockType(int block, int value);

        @Field("rgUserData") void userData(int block, int value);

        @Field("rgTail") void tail(int handleType, int value);

        @Field("pNextSegment") void nextSegment(long value);

        @Field("pHandleTable") void handleTable(long value);

        @Field("bEmptyLine") void emptyLine(int value);

        @Field("rgValue") void slot(int index, long value);
    }
}
