package io.clrheap.dac.host;

/** The tags of the records the child process writes to the parent (one byte, then the record's fields, big-endian). */
final class Wire {

    static final int GC_HEAP_DATA = 'G';
    static final int USEFUL_GLOBALS = 'U';
    static final int THREAD = 'T';
    static final int GLOBAL_CONTEXT = 'A';
    static final int HEAP = 'H';
    static final int SEGMENT = 'S';
    static final int METHOD_TABLE = 'M';
    static final int OBJECT = 'O';
    /** A field listing's MethodTable: its MethodTableData, MethodTableFieldData and parent's instance-field count. */
    static final int METHOD_TABLE_FIELDS = 'L';
    /** A field listing's FieldDesc: the MethodTable listed, the FieldDesc's address and its FieldDescData. */
    static final int FIELD_DESC = 'I';
    static final int HEAP_OBJECT = 'W';
    static final int CALL_FAILED = 'F';
    static final int FAILED_READS = 'R';
    static final int NOTE = 'N';
    /** A type name GetMethodTableName gave (asked after the walk, so a crash there leaves the walk whole). */
    static final int TYPE_NAME = 'Y';
    /** The heap walk is complete; type names may follow. */
    static final int WALK_DONE = 'D';
    /** The walk is over and everything above was written: a stream without it ended early. */
    static final int END = 'Z';
    /** The child could not walk at all (not a crash): a message follows, then END. */
    static final int ERROR = 'E';

    private Wire() {
    }
}
