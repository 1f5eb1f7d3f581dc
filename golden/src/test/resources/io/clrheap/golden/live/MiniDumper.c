/*
 * clrheap's Windows dump writer for the Wine tests (WineTestProcess compiles it with mingw-w64 at test time and runs
 * it under Wine in the same prefix as the process it dumps).
 *
 *   MiniDumper.exe PID OUT.dmp
 *
 * writes a full-memory minidump of the Windows process PID with dbghelp's MiniDumpWriteDump, the way procdump -ma
 * and Task Manager's "Create dump file" do, with the process suspended meanwhile (NtSuspendProcess): MiniDumpWriteDump
 * reads the memory while the threads run, and a busy process's dump is then torn (allocation contexts behind the
 * objects their threads allocated since: docs/reference/windows.md section 2). Exit codes: 0 written, 2 bad arguments,
 * 3 OpenProcess failed, 4 the file could not be created, 5 MiniDumpWriteDump failed, 6 the process could not be
 * suspended; the Windows error is printed on stderr.
 */
#include <windows.h>
#include <dbghelp.h>
#include <stdio.h>
#include <stdlib.h>

/* ntdll's process-wide suspend and resume (exported since Windows XP; Wine has them) */
typedef LONG (NTAPI *ProcessFunction)(HANDLE);

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
    HANDLE process = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ | PROCESS_DUP_HANDLE | PROCESS_SUSPEND_RESUME, FALSE, (DWORD) pid);
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
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    ProcessFunction suspend = (ProcessFunction) (void *) GetProcAddress(ntdll, "NtSuspendProcess");
    ProcessFunction resume = (ProcessFunction) (void *) GetProcAddress(ntdll, "NtResumeProcess");
    LONG status = suspend == NULL || resume == NULL ? -1 : suspend(process);
    if (status != 0) {
        fprintf(stderr, "NtSuspendProcess(%lu) failed: status 0x%lx\n", pid, (unsigned long) status);
        CloseHandle(file);
        CloseHandle(process);
        return 6;
    }
    BOOL written = MiniDumpWriteDump(process, (DWORD) pid, file, type, NULL, NULL, NULL);
    DWORD error = GetLastError();
    resume(process);
    CloseHandle(file);
    CloseHandle(process);
    if (!written) {
        fprintf(stderr, "MiniDumpWriteDump(%lu) failed: error 0x%lx\n", pid, error);
        return 5;
    }
    return 0;
}
