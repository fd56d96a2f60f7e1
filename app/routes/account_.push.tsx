// Push on this device (issue 27 §1): the opt-in's script (components/push-opt-in.tsx) asks here for
// the VAPID key on a tap, then posts the browser's subscription; the api names the device from
// this request's User-Agent. Not a screen: JSON for the script only.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { pushKeyAnswer, pushSubscribeAnswer } from '~/upstream/notify.server'

export const loader = ({ request, context }: LoaderFunctionArgs) => pushKeyAnswer(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => pushSubscribeAnswer(request, context)
