// First: zod must know it may not eval before any screen's schemas load.
import './lib/zod-jitless'
import { startPage } from './start-page'
import './styles.css'

void startPage()
