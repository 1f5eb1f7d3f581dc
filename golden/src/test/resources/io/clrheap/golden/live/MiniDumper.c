/*
 * clrheap's Windows dump writer for the Wine tests (WineTestProcess compiles it with mingw-w64 at test time and runs
 * it under Wine in the same prefix as the process it dumps).
 *
 *   MiniDumper.exe PID OUT.dmp
 *
 * writes a full-memory minidump of the Windows process PID with dbghelp's MiniDumpWriteDump, the way procdump -ma
 * and Task Manager's "Create dump file" do. Exit codes: 0 written, 2 bad arguments, 3 OpenProcess failed,
 * 4 the file could not be created, 5 MiniDumpWriteDump failed; the Windows error is printed on stderr.
 */
#include <windows.h>
#include <dbghelp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: MiniDumper PID OUT.dmp\n");
        return 2;
    }
    char *end;
    unsigned long pid = strtoul(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0') {
        fprintf(stderr, "not a process id: %s\n", argv[1]);
        return 2;
    }
    /* what MiniDumpWriteDump needs of the process (MSDN: PROCESS_QUERY_INFORMATION and PROCESS_VM_READ; the handle
       stream also wants PROCESS_DUP_HANDLE) */
    HANDLE process = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ | PROCESS_DUP_HANDLE, FALSE, (DWORD) pid);
    if (process == NULL) {
        fprintf(stderr, "OpenProcess(%lu) failed: error %lu\n", pid, GetLastError());
        return 3;
    }
    HANDLE file = CreateFileA(argv[2], GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE) {
        fprintf(stderr, "CreateFile(%s) failed: error %lu\n", argv[2], GetLastError());
        CloseHandle(process);
        return 4;
    }
    /* the flags of a full dump as procdump -ma asks for them: every committed page, plus what describes it */
    MINIDUMP_TYPE type = (MINIDUMP_TYPE) (MiniDumpWithFullMemory | MiniDumpWithHandleData | MiniDumpWithThreadInfo
            | MiniDumpWithFullMemoryInfo | MiniDumpWithUnloadedModules | MiniDumpWithProcessThreadData);
    BOOL written = MiniDumpWriteDump(process, (DWORD) pid, file, type, NULL, NULL, NULL);
    DWORD error = GetLastError();
    CloseHandle(file);
    CloseHandle(process);
    if (!written) {
        fprintf(stderr, "MiniDumpWriteDump(%lu) failed: error 0x%lx\n", pid, error);
        return 5;
    }
    return 0;
}
