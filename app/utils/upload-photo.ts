import { transportMessages } from './messages'

/**
 * POSTs one photo to one of the web's upload routes (/file/upload for a card, /edit-profile/photo
 * for the avatar) and reports its progress, which fetch cannot do for uploads. Answers the api's
 * file id; a refusal rejects with the route's sentence, or with `failed` when there is none.
 * Browser only: called from event handlers and effects.
 */
export function uploadPhoto(url: string, file: File, onProgress: (fraction: number) => void, failed: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', url)
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      const answer = xhr.response as { fileId?: string; error?: string } | null
      if (xhr.status === 200 && answer?.fileId) return resolve(answer.fileId)
      // Signed out meanwhile: the route sent the request on to /login; the page goes there too.
      if (xhr.responseURL && new URL(xhr.responseURL).pathname === '/login') window.location.assign(xhr.responseURL)
      reject(new Error(answer?.error ?? failed))
    }
    xhr.onerror = () => reject(new Error(transportMessages.network))
    const body = new FormData()
    body.append('file', file)
    xhr.send(body)
  })
}
