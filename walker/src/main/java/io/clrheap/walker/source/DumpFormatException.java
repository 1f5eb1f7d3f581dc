package io.clrheap.walker.source;

import java.io.IOException;

/**
 * The file is not an ELF core this reader accepts, or it is corrupt. The message names the file, what is wrong
 * and the file offset in {@code 0x} hex: {@code core: e_phnum = 4096 program headers at e_phoff 0x40 end at
 * 0x38040, past the end of the file (0x1000 bytes) at file offset 0x38}.
 */
public final class DumpFormatException extends IOException {

    public DumpFormatException(String message) {
        super(message);
    }

    public DumpFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
