import { apiBlob } from '@/lib/api-client';

export const manualPdfCall = (): Promise<Blob> => apiBlob('/manual-page/download');
