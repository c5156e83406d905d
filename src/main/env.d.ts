// electron-vite's module declarations for main-process imports such as `icon.png?asset`.
/// <reference types="electron-vite/node" />
