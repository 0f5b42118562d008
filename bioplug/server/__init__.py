"""A resident ``bioplug`` server: one warm process runs the commands of many short calls.

A fresh ``bioplug`` process pays interpreter start-up, numpy and pyopencl imports, driver
start-up and context creation on every call (about 0.6 s of a 0.9 s ``bioplug msa`` of a
small family on an H100). ``bioplug server start`` keeps one process with all of that done;
while it runs, every ``bioplug COMMAND ...`` call hands its arguments, working directory,
environment, umask and its standard input, output and error (the file descriptors
themselves) to the server, which runs the command exactly as the call would have, one job at
a time, and the call exits with the job's exit code.

Modules: :mod:`~bioplug.server.protocol` (where the socket lives, message framing),
:mod:`~bioplug.server.client` (the calls' side; standard library only, so a call that finds
a server imports neither numpy nor pyopencl), :mod:`~bioplug.server.daemon` (the server),
:mod:`~bioplug.server.cli` (``bioplug server start|stop|status``).

Nothing is imported here: the client path must stay light.
"""
