package io.clrheap.layout.profile;

import io.clrheap.layout.LayoutException;

/**
 * A profile file is malformed. The message names the file and, where the problem is in one, the structure and
 * field: {@code net8.0.json#server: heap_segment.next: offset 0xb8 ends past the structure's size 0xb8}.
 */
public final class ProfileException extends LayoutException {

    private final String file;
    private final String structure;
    private final String field;

    public ProfileException(String file, String structure, String field, String problem) {
        super(location(file, structure, field) + ": " + problem);
        this.file = file;
        this.structure = structure;
        this.field = field;
    }

    public ProfileException(String file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
        this.structure = null;
        this.field = null;
    }

    private static String location(String file, String structure, String field) {
        if (structure == null) {
            return file;
        }
        return file + ": " + structure + (field == null ? "" : "." + field);
    }

    /** The file (and variant) the bad entry came from. */
    public String file() {
        return file;
    }

    /** The structure the problem is in, or null. */
    public String structure() {
        return structure;
    }

    /** The field the problem is in, or null. */
    public String field() {
        return field;
    }
}
