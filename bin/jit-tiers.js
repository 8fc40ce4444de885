// Node 24 turned on V8's background Maglev and Sparkplug compilers; Node 20 and 22 have both off.
// A background compile that waits for a garbage collection while process.exit joins V8's threads
// deadlocks the exit: the command's work is done and the process never ends (nodejs/node#54918;
// docs/performance.md). Set before any code is compiled: V8 takes a
// code cache only under the flags it was made with, so the build makes its caches the same way.
'use strict';
require('node:v8').setFlagsFromString('--no-maglev --no-concurrent-sparkplug');
