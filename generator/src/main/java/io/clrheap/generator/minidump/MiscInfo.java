package io.clrheap.generator.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * MiscInfoStream (15) in the size Windows 10's dbghelp writes it: MINIDUMP_MISC_INFO_5, 1364 (0x554) bytes
 * (Microsoft's minidumpapiset.h, where it is MINIDUMP_MISC_INFO_N, the latest; offsets checked by compiling its field
 * list with x86_64-w64-mingw32-gcc against mingw-w64's TIME_ZONE_INFORMATION and XSTATE_FEATURE, #pragma pack 4):
 * <pre>
 *    0 SizeOfInfo            4 Flags1              8 ProcessId          12 ProcessCreateTime (time_t, u32)
 *   16 ProcessUserTime      20 ProcessKernelTime  24..43 processor power (MaxMhz, CurrentMhz, MhzLimit, MaxIdleState, CurrentIdleState)
 *   44 ProcessIntegrityLevel 48 ProcessExecuteFlags 52 ProtectedProcess 56 TimeZoneId  60 TimeZone (TIME_ZONE_INFORMATION, 172:
 *      Bias @0, StandardName[32] @4, StandardDate @68, StandardBias @84, DaylightName[32] @88, DaylightDate @152, DaylightBias @168)
 *  232 BuildString[260] (UTF-16)  752 DbgBldStr[40]  832 XStateData (XSTATE_CONFIG_FEATURE_MSC_INFO, 528)  1360 ProcessCookie
 * </pre>
 * "A member is valid if it's within the available size and its corresponding bit is set" (minidumpapiset.h); Flags1
 * says which: MINIDUMP_MISC1_PROCESS_ID (the process id: lldb and ClrMD read it at offset 8), MINIDUMP_MISC1_PROCESS_TIMES
 * (created at {@code createTime}, the dump's stand-in time, no CPU time spent), MINIDUMP_MISC3_PROCESS_INTEGRITY
 * (SECURITY_MANDATORY_MEDIUM_RID 0x2000, winnt.h: a process a user started) and MINIDUMP_MISC3_TIMEZONE (UTC:
 * TIME_ZONE_ID_UNKNOWN 0, no bias, both names "Coordinated Universal Time"). The processor power figures, execute
 * flags, build strings and process cookie are left out (their bits clear, their bytes 0): clrheap has no facts for
 * them; XStateData is 0, as the thread contexts carry no extended state.
 */
final class MiscInfo {

    static final int SIZE = 1364;
    static final int MISC1_PROCESS_ID = 0x1;
    static final int MISC1_PROCESS_TIMES = 0x2;
    static final int MISC3_PROCESS_INTEGRITY = 0x10;
    static final int MISC3_TIMEZONE = 0x40;
    static final int SECURITY_MANDATORY_MEDIUM_RID = 0x2000;
    private static final int PROCESS_INTEGRITY_LEVEL = 44;
    private static final int TIME_ZONE_ID = 56;
    private static final int TIME_ZONE = 60;
    private static final int STANDARD_NAME = TIME_ZONE + 4;
    private static final int DAYLIGHT_NAME = TIME_ZONE + 88;
    private static final String UTC = "Coordinated Universal Time";

    private MiscInfo() {
    }

    /**
     * @param processId  the process id
     * @param createTime when the process started, seconds since 1970 (time_t)
     */
    static byte[] bytes(long processId, long createTime) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, SIZE);
        b.putInt(4, MISC1_PROCESS_ID | MISC1_PROCESS_TIMES | MISC3_PROCESS_INTEGRITY | MISC3_TIMEZONE);
        b.putInt(8, (int) processId);
        b.putInt(12, (int) createTime);
        b.putInt(PROCESS_INTEGRITY_LEVEL, SECURITY_MANDATORY_MEDIUM_RID);
        b.putInt(TIME_ZONE_ID, 0);
        b.put(STANDARD_NAME, UTC.getBytes(StandardCharsets.UTF_16LE));
        b.put(DAYLIGHT_NAME, UTC.getBytes(StandardCharsets.UTF_16LE));
        return b.array();
    }
}
