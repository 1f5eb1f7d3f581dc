package io.clrheap.layout.view;

/** {@code EEClass}: only its back pointer, which validates a MethodTable. */
@Struct("EEClass")
public interface EeClass extends StructView {

    @Field("MethodTable") long methodTable();

    interface Writable extends EeClass, WritableStructView {
        @Field("MethodTable") void methodTable(long value);
    }
}
