package io.clrheap.capture.ipc;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A diagnostics IPC message: the header (magic "DOTNET_IPC_V1\0", u16 size of the whole message, u8 command set, u8
 * command id, u16 reserved) and a payload of little-endian fields and length-prefixed UTF-16 strings
 * (docs/ipc-protocol.md section 2, with the protocol's sources).
 */
final class IpcMessage {

    static final byte[] MAGIC = "DOTNET_IPC_V1\0".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER_SIZE = 20;

    static final int SERVER_COMMAND_SET = 0xFF;
    static final int SERVER_OK = 0x00;
    static final int SERVER_ERROR = 0xFF;

    private final int commandSet;
    private final int commandId;
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();

    IpcMessage(int commandSet, int commandId) {
        this.commandSet = commandSet;
        this.commandId = commandId;
    }

    IpcMessage u8(int v) {
        payload.write(v);
        return this;
    }

    IpcMessage u32(long v) {
        for (int i = 0; i < 4; i++) {
            payload.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    IpcMessage u64(long v) {
        for (int i = 0; i < 8; i++) {
            payload.write((int) (v >>> (8 * i)));
        }
        return this;
    }

    /** u32 length in characters, the terminating NUL included, then the UTF-16 characters; an empty string is just 0. */
    IpcMessage string(String s) {
        if (s.isEmpty()) {
            return u32(0);
        }
        u32(s.length() + 1L);
        byte[] b = (s + "\0").getBytes(StandardCharsets.UTF_16LE);
        payload.write(b, 0, b.length);
        return this;
    }

    ByteBuffer encode() {
        int size = HEADER_SIZE + payload.size();
        if (size > 0xFFFF) {
            throw new IllegalArgumentException("an IPC message of " + size + " bytes does not fit its u16 size");
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putShort((short) size).put((byte) commandSet).put((byte) commandId).putShort((short) 0).put(payload.toByteArray());
        return b.flip();
    }
}
