// The web process's entry (build/server.js): everything it does lives in server/.
import { reportStartFailure, startWebProcess } from './server/app'

startWebProcess().catch(reportStartFailure)
