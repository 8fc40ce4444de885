"""Runs a command in a pseudo-terminal and relays bytes: the command's terminal output to
stdout, our stdin to the command's keyboard. Exits with the command's exit status (128 + N
when a signal ended it). For tests that drive interactive prompts; see pty.ts."""
import fcntl
import os
import pty
import select
import struct
import sys
import termios

ROWS, COLUMNS = 60, int(os.environ.get("PTY_COLUMNS", "160"))


def main(argv):
    pid, master = pty.fork()
    if pid == 0:
        # The child: the pty is already its stdin, stdout, stderr and controlling terminal.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        os.execvp(argv[0], argv)

    watch_stdin = True
    while True:
        readable, _, _ = select.select([master] + ([0] if watch_stdin else []), [], [])
        if master in readable:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every copy of the terminal's other side is closed
                data = b""
            if not data:
                break
            os.write(1, data)
        if 0 in readable:
            keys = os.read(0, 65536)
            if keys:
                os.write(master, keys)
            else:
                watch_stdin = False

    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
