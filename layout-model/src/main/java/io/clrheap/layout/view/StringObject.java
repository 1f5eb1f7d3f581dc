package io.clrheap.layout.view;

/** {@code StringObject}: length in UTF-16 characters, then the characters. */
@Struct("String")
public interface StringObject extends StructView {

    @Field("m_pMethTab") long methodTableWord();

    @Field("m_StringLength") long length();

    /** The first UTF-16 character (the rest follow it). */
    @Field("m_FirstChar") int firstChar();

    interface Writable extends StringObject, WritableStructView {
        @Field("m_pMethTab") void methodTableWord(long value);

        @Field("m_StringLength") void length(long value);
    }
}
