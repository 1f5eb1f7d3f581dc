/*
 * clrheap's relay to a Windows .NET runtime's diagnostics server for the Wine tests (WineTestProcess compiles it with
 * mingw-w64 at test time and runs it under Wine in the same prefix as the process it talks to): Linux Java cannot open
 * a Wine named pipe, but it can talk to a process's stdin and stdout.
 *
 *   PipeRelay.exe PID
 *
 * opens \\.\pipe\dotnet-diagnostic-PID (the runtime's diagnostics server on Windows: ds-ipc-pal-namedpipe.c of
 * dotnet/runtime, "\\\\.\\pipe\\dotnet-diagnostic-%d") and copies bytes both ways, stdin to the pipe and the pipe to
 * stdout, unchanged, until either side ends: one relay process is one diagnostics connection. Exit codes: 0 a side
 * ended, 2 bad arguments, 3 the pipe could not be opened (after waiting while every instance was busy), 4 a copy failed;
 * the Windows error is printed on stderr.
 *
 * The pipe is opened for overlapped I/O: on a handle opened without FILE_FLAG_OVERLAPPED Windows serialises every
 * read and write of the handle, so a read waiting for the runtime's answer would hold back the write of the request
 * (MSDN, "Synchronous and Asynchronous I/O"). The standard handles are the pipes Java made: read and written with
 * ReadFile and WriteFile, never through the C runtime's text mode.
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>

/* how long to wait for a free instance of the pipe in all: the server makes its next instance as soon as it has
   accepted a client (ds_ipc_accept calls ds_ipc_listen again, ds-ipc-pal-namedpipe.c), so the pipe is busy for
   moments only */
#define BUSY_WAIT_MS 10000
#define BUFFER_SIZE 65536

static HANDLE pipe;

/* a read or write of the overlapped pipe, waited for: the bytes moved, or -1 with the error in *error
   (ERROR_BROKEN_PIPE and ERROR_PIPE_NOT_CONNECTED when the runtime closed its end). The server's pipe is a byte-mode
   pipe (PIPE_TYPE_BYTE in ds_ipc_listen), so a read never ends with ERROR_MORE_DATA. */
static long pipe_io(BOOL write, char *buffer, DWORD count, HANDLE event, DWORD *error)
{
    OVERLAPPED o;
    ZeroMemory(&o, sizeof o);
    o.hEvent = event;
    DWORD moved = 0;
    BOOL done = write ? WriteFile(pipe, buffer, count, NULL, &o) : ReadFile(pipe, buffer, count, NULL, &o);
    if ((!done && GetLastError() != ERROR_IO_PENDING) || !GetOverlappedResult(pipe, &o, &moved, TRUE)) {
        *error = GetLastError();
        return -1;
    }
    return (long) moved;
}

/* stdin to the pipe, until stdin ends (Java closed it: the connection is over) */
static DWORD WINAPI to_pipe(LPVOID unused)
{
    static char buffer[BUFFER_SIZE];
    HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    HANDLE event = CreateEventW(NULL, TRUE, FALSE, NULL);
    for (;;) {
        DWORD n = 0;
        if (!ReadFile(in, buffer, sizeof buffer, &n, NULL) || n == 0) {
            return 0; /* ERROR_BROKEN_PIPE or end of file */
        }
        for (DWORD off = 0; off < n;) {
            DWORD error = 0;
            long w = pipe_io(TRUE, buffer + off, n - off, event, &error);
            if (w < 0) {
                fprintf(stderr, "PipeRelay: writing to the pipe failed: error %lu\n", error);
                return error == ERROR_BROKEN_PIPE || error == ERROR_NO_DATA || error == ERROR_PIPE_NOT_CONNECTED ? 0 : 4;
            }
            off += (DWORD) w;
        }
    }
}

/* the pipe to stdout, until the runtime closes its end */
static DWORD WINAPI from_pipe(LPVOID unused)
{
    static char buffer[BUFFER_SIZE];
    HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    HANDLE event = CreateEventW(NULL, TRUE, FALSE, NULL);
    for (;;) {
        DWORD error = 0;
        long n = pipe_io(FALSE, buffer, sizeof buffer, event, &error);
        if (n < 0) {
            if (error == ERROR_BROKEN_PIPE || error == ERROR_PIPE_NOT_CONNECTED) {
                return 0;
            }
            fprintf(stderr, "PipeRelay: reading the pipe failed: error %lu\n", error);
            return 4;
        }
        for (DWORD off = 0; off < (DWORD) n;) {
            DWORD w = 0;
            if (!WriteFile(out, buffer + off, (DWORD) n - off, &w, NULL)) {
                return 0; /* Java closed stdout: the connection is over */
            }
            off += w;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: PipeRelay PID\n");
        return 2;
    }
    char *end;
    unsigned long pid = strtoul(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0') {
        fprintf(stderr, "PipeRelay: not a process id: %s\n", argv[1]);
        return 2;
    }
    wchar_t name[64];
    _snwprintf(name, 64, L"\\\\.\\pipe\\dotnet-diagnostic-%lu", pid);
    name[63] = 0;
    DWORD waited = 0;
    for (;;) {
        pipe = CreateFileW(name, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, FILE_FLAG_OVERLAPPED, NULL);
        if (pipe != INVALID_HANDLE_VALUE) {
            break;
        }
        DWORD error = GetLastError();
        if (error != ERROR_PIPE_BUSY || waited >= BUSY_WAIT_MS) {
            fprintf(stderr, "PipeRelay: CreateFile(%ls) failed: error %lu%s\n", name, error,
                    error == ERROR_FILE_NOT_FOUND ? " (no such pipe: no diagnostics server in that process)" : "");
            return 3;
        }
        /* every instance is taken: wait for one (MSDN, "Named Pipe Client") */
        DWORD start = GetTickCount();
        WaitNamedPipeW(name, 1000);
        waited += GetTickCount() - start + 1;
    }
    HANDLE threads[2];
    threads[0] = CreateThread(NULL, 0, to_pipe, NULL, 0, NULL);
    threads[1] = CreateThread(NULL, 0, from_pipe, NULL, 0, NULL);
    if (threads[0] == NULL || threads[1] == NULL) {
        fprintf(stderr, "PipeRelay: CreateThread failed: error %lu\n", GetLastError());
        return 4;
    }
    /* the first side to end ends the connection: ExitProcess closes the pipe (the runtime sees its client go) and
       stdout (Java sees the end of the stream) */
    DWORD which = WaitForMultipleObjects(2, threads, FALSE, INFINITE);
    DWORD code = 4;
    GetExitCodeThread(threads[which - WAIT_OBJECT_0], &code);
    CloseHandle(pipe);
    ExitProcess(code);
}
