package io.clrheap.layout.view;

/** An array ({@code ArrayBase}): MethodTable pointer and element count. Also the shape of a free object. */
@Struct("Array")
public interface ArrayObject extends StructView {

    /** The raw MethodTable word (mask the low bits before use). */
    @Field("m_pMethTab") long methodTableWord();

    @Field("m_NumComponents") long numComponents();

    interface Writable extends ArrayObject, WritableStructView {
        @Field("m_pMethTab") void methodTableWord(long value);

        @Field("m_NumComponents") void numComponents(long value);
    }
}
