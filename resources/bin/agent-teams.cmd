@echo off
rem The `agent-teams` command of the installed app on Windows, as VS Code's code.cmd: the app's
rem own executable runs the CLI bundle as Node. Add this folder to PATH to use it anywhere.
setlocal
set "ELECTRON_RUN_AS_NODE=1"
"%~dp0..\..\Agent Teams.exe" "%~dp0cli.mjs" %*
set "EXIT_CODE=%ERRORLEVEL%"
endlocal & exit /b %EXIT_CODE%
