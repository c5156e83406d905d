// The app itself, loaded by main.tsx. zod's configuration comes before any schema is built.
import './zod-config'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { resolveApi } from './api'
import { App } from './shell/App'
import { themeController } from './ui/theme/theme'

const container = document.getElementById('root')
if (container === null) throw new Error('index.html has no #root element')

// Before the first paint, so a light page never flashes dark.
themeController().start()

const { api, onConnectionChange } = resolveApi()

createRoot(container).render(
  <StrictMode>
    <App api={api} onConnectionChange={onConnectionChange} />
  </StrictMode>,
)
